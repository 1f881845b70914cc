import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { closeDataSource, DatabaseLanes } from '@board/persistence';

/**
 * Starts measuring the read replicas (if any), and closes the pools once the HTTP server has
 * finished its open requests. It answers only once the server has closed their connections: the
 * embedded PostgreSQL is stopped right after (main.ts), and a session still open then would be
 * ended by the server instead, each client reporting it as an error.
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
