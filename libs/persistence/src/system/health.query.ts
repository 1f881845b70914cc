import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { sql } from '../sql';

/** Whether the database answers at all (the health route). */
@Injectable()
export class DatabaseHealthQuery {
  constructor(private readonly db: Database) {}

  /** True when a trivial statement comes back; false on any error. */
  answers(): Promise<boolean> {
    return this.db.query(sql`SELECT 1`).then(
      () => true,
      () => false,
    );
  }
}
