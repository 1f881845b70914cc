export interface UnitOfWorkOptions {
  /** Serialise with every other write of this project (pg_advisory_xact_lock). */
  lockProject?: string;
}

/**
 * One write, one transaction: everything a use case does inside `run` (the change, its feed
 * line, its outbox rows, its stream notice) commits or rolls back together. Repositories pick
 * the open transaction up by themselves.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>, options?: UnitOfWorkOptions): Promise<T>;
}
