import { Pool } from 'pg';
import { ReplicaRouter } from './replica-router';
import { endPool } from './pool-sessions';

/** How the connections reach PostgreSQL, when a pooler stands between (DATABASE_POOLER). */
export interface ConnectionShape {
  /**
   * Each connection is a session of its own (direct, or a pooler in session mode): statements
   * may be named prepared statements and the requests' limit travels in the start-up message.
   * False behind a pooler in transaction mode, where a server connection changes hands at every
   * transaction's end.
   */
  sessions: boolean;
  /** Named prepared statements survive (sessions, or a pooler that tracks them: PgBouncer 1.21+). */
  prepared: boolean;
  /** The requests' statement limit, which without sessions each transaction sets for itself. */
  statementMs: number;
  /** A direct connection for LISTEN (and migrations): never through a transaction-mode pooler. */
  listenUrl: string;
}

/**
 * What the Database needs beside the requests' pool (TypeORM's): the background work's own pool,
 * the statement limit of heavy reads (decisions.md › Fair use), the shape of the connections, the
 * one connection the instance's beats go on (`PgInstanceRegistry`), and the read replicas
 * (DATABASE_READ_URL; a router with none is off).
 */
export class DatabaseLanes {
  constructor(
    readonly background: Pool,
    /** A heavy read's statement limit, raised with SET LOCAL in its own transaction. */
    readonly heavyStatementMs: number,
    readonly shape: ConnectionShape,
    /** One connection for the beats alone: a beat that queued behind a sweep could make a live instance look dead. */
    readonly liveness: Pool,
    readonly replicas: ReplicaRouter = ReplicaRouter.none(),
  ) {}

  /**
   * Closes the background pool, the beats' connection and the replicas' (at shutdown, after the
   * background work has stopped), and answers once the servers have closed those connections.
   */
  async close(): Promise<void> {
    await this.replicas.close();
    for (const pool of [this.background, this.liveness]) await endPool(pool);
  }
}
