import type { Pool } from 'pg';

/**
 * The longest a shutdown waits for the server to close a pool's connections: a server that stopped
 * answering must not hold the stop up. One that answers closes them as soon as each session gets
 * the CPU to read its goodbye, milliseconds even on a loaded machine.
 */
export const SESSIONS_CLOSE_WAIT_MS = 5_000;

/** A pool to end: pg's, or a stand-in of one (the replica router's fakes in unit tests). */
export interface EndablePool {
  end?(): Promise<void>;
  readonly ending?: boolean;
}

interface Count {
  open: number;
  /** Called when `open` comes down to 0. */
  closed: Set<() => void>;
}

const counts = new WeakMap<object, Count>();

/**
 * Keeps count of the connections `pool` has open on the server, so that `endPool` can wait for
 * them: one more at each `connect`, one fewer at each `remove`, which pg-pool emits only once that
 * connection has closed (a client that failed to connect is neither). `open`: the connections it
 * already has (TypeORM's pool connects inside `initialize()`, before anyone can listen).
 */
export function countSessions(pool: Pool, open = 0): void {
  const count: Count = { open, closed: new Set() };
  counts.set(pool, count);
  pool.on('connect', () => count.open++);
  pool.on('remove', () => {
    count.open--;
    if (count.open <= 0) for (const closed of count.closed) closed();
  });
}

/**
 * Ends the pool and answers once the server has closed every connection it had (counted by
 * `countSessions`), or after `waitMs` (a test shortens it). pg-pool's own `end()` answers as soon
 * as it has asked its idle connections to close (it does not wait for `client.end()`), before
 * their sessions have read that goodbye: the embedded PostgreSQL, stopped right after (a fast
 * shutdown), could then end them itself, and each client would report "terminating connection due
 * to administrator command" as the service stops. On a loaded machine a session may well not run
 * between the two.
 */
export async function endPool(pool: EndablePool, waitMs = SESSIONS_CLOSE_WAIT_MS): Promise<void> {
  if (!pool.ending) await pool.end?.();
  await sessionsClosed(pool, waitMs);
}

/** Answers once the pool (ended, or ending) has no connection left open on the server, or after `waitMs`. */
export function sessionsClosed(pool: object, waitMs = SESSIONS_CLOSE_WAIT_MS): Promise<void> {
  const count = counts.get(pool);
  if (!count || count.open <= 0) return Promise.resolve();
  return new Promise<void>((done) => {
    const closed = () => {
      clearTimeout(timer);
      count.closed.delete(closed);
      done();
    };
    const timer = setTimeout(closed, waitMs);
    count.closed.add(closed);
  });
}
