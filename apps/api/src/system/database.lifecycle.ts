import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { closeDataSource, DatabaseLanes } from '@board/persistence';

/**
 * Starts measuring the read replicas (if any), and closes the pools once the HTTP server has
 * finished its open requests. It answers only once the server has closed their connections: the
 * embedded PostgreSQL is stopped right after (main.ts), and a session still open then would be
 * ended by the server instead, each client reporting it as an error.
 *
 * The order is Nest's phases, not its modules: `app.close()` runs every module's `onModuleDestroy`
 * (the workers and sweepers wait there for their pass), then every `beforeApplicationShutdown`
 * (the instance leaves, LivenessWorker), then closes the HTTP server, and only then runs
 * `onApplicationShutdown`, where the pools close. Within a phase Nest goes from the root module to
 * the global ones, so this root module's hook comes first in its phase: no other hook may use the
 * database in `onApplicationShutdown` (test/e2e/shutdown.test.ts).
 */
@Injectable()
export class DatabaseLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lanes: DatabaseLanes,
  ) {}

  onApplicationBootstrap(): void {
    this.lanes.replicas.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await closeDataSource(this.dataSource);
    await this.lanes.close();
  }
}
