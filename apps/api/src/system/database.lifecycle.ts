import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseLanes } from '@board/persistence';

/** Closes the pools once the HTTP server has finished its open requests. */
@Injectable()
export class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lanes: DatabaseLanes,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.lanes.close();
  }
}
