import { Written } from './write-events';

export interface UnitOfWorkOptions {
  /** Serialise with every other write of this project (pg_advisory_xact_lock). */
  lockProject?: string;
}

/**
 * A write a repository made as one statement (a compare-and-set, an insert that takes its own
 * lock) and has not run: only the unit of work runs it, with the write's events folded into the
 * same statement. Opaque here; each adapter of the unit of work knows its own concrete kind. `T`
 * is what the statement answers (whether it landed, an outcome).
 */
export abstract class StatementWrite<T> {
  /** Carries `T` for the type checker only; never set. */
  declare protected readonly answers?: T;
}

/**
 * One write, one transaction: everything a use case does inside `write` commits or rolls back
 * together. Repositories pick the open transaction up by themselves. The work answers its result
 * with the events it raised (`withEvents(result, feedLine(…), notice(…))`, or `silent(result)`); the
 * adapter writes their feed lines, webhook outbox rows and stream notices before COMMIT. That is
 * the only way application code leaves a feed line or rings the stream.
 *
 * The work may run more than once: a write that the database ends to break a deadlock is run
 * again from the start. So the work only reads and writes through the repositories; whatever else
 * a write causes is derived from its events, after the one run that committed.
 */
export abstract class UnitOfWork {
  abstract write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']>;

  /**
   * The same protocol for a write that is one statement (the hottest writes, which cannot afford
   * a transaction of round trips): the work answers the repository's statement with its events,
   * `withEvents(store.writeIfUnchanged(…), feedLine(…), notice(…))`, and the adapter runs ONE
   * statement that writes the events only if the write landed (a compare-and-set that lost, a
   * create refused, writes none). Events of one project, feed lines and notices only.
   */
  abstract writeStatement<T>(work: () => Written<StatementWrite<T>>): Promise<T>;
}
