/** Whether the database answers at all (the health route). */
export abstract class DatabaseHealthQuery {
  /** True when a trivial statement comes back; false on any error. */
  abstract answers(): Promise<boolean>;
}
