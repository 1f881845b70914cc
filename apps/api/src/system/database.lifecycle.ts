import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseLanes } from '@board/persistence';

/** Starts measuring the read replicas (if any), and closes the pools once the HTTP server has finished its open requests. */
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
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.lanes.close();
  }
}
