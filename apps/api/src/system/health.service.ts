import { Injectable } from '@nestjs/common';
import { DatabaseHealthQuery } from '@board/persistence';
import { within } from './within';

/** How long a health check waits for the database before it says the service is not healthy. */
const HEALTH_WAIT_MS = 2000;

/** Whether the service can do its work: its database answers in time. */
@Injectable()
export class HealthService {
  constructor(private readonly database: DatabaseHealthQuery) {}

  ok(): Promise<boolean> {
    return within(this.database.answers(), HEALTH_WAIT_MS, false);
  }
}
