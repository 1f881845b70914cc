import { Pool } from 'pg';

/**
 * What the Database needs beside the requests' pool (TypeORM's): the background work's own pool
 * and the statement limit of heavy reads (decisions.md › Fair use).
 */
export class DatabaseLanes {
  constructor(
    readonly background: Pool,
    /** A heavy read's statement limit, raised with SET LOCAL in its own transaction. */
    readonly heavyStatementMs: number,
  ) {}

  /** Closes the background pool (at shutdown, after the background work has stopped). */
  async close(): Promise<void> {
    if (!this.background.ended) await this.background.end();
  }
}
