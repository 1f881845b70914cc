import { Pool } from 'pg';

/**
 * What the Database needs beside the requests' pool (TypeORM's): the background work's own pool,
 * the statement limit of heavy reads (decisions.md › Fair use), and the one connection the
 * instance's beats go on (`PgInstanceRegistry`).
 */
export class DatabaseLanes {
  constructor(
    readonly background: Pool,
    /** A heavy read's statement limit, raised with SET LOCAL in its own transaction. */
    readonly heavyStatementMs: number,
    /** One connection for the beats alone: a beat that queued behind a sweep could make a live instance look dead. */
    readonly liveness: Pool,
  ) {}

  /** Closes the background pool and the beats' connection (at shutdown, after the background work has stopped). */
  async close(): Promise<void> {
    for (const pool of [this.background, this.liveness]) if (!pool.ended) await pool.end();
  }
}
