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
 */
export abstract class UnitOfWork {
  abstract write<W extends Written<unknown>>(work: () => Promise<W>, options?: UnitOfWorkOptions): Promise<W['result']>;
}
