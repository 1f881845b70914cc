import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { sql } from '../sql';
import { DatabaseHealthQuery } from './health.query';

/** The health check as `SELECT 1`. */
@Injectable()
export class PgDatabaseHealthQuery extends DatabaseHealthQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** True when a trivial statement comes back; false on any error. */
  answers(): Promise<boolean> {
    return this.db.query(sql`SELECT 1`).then(
      () => true,
      () => false,
    );
  }
}
