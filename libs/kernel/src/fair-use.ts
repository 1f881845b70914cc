/**
 * Fair use (decisions.md › Fair use): one person must not take what the others need — the
 * database's connections, its time, or more than a few heavy reads at once.
 */

/** Heavy reads one caller (a person, or an agent for tokens) may have under way at once. */
export const HEAVY_READS_AT_ONCE = 2;

/**
 * The classes of heavy reads. Each takes a slot of its caller and runs under the long statement
 * limit; routes name theirs (usage, search and export have no route yet).
 */
export const HEAVY_READ_CLASSES = ['chart', 'usage', 'search', 'export', 'import'] as const;
export type HeavyReadClass = (typeof HEAVY_READ_CLASSES)[number];

/**
 * Takes one of the caller's heavy-read slots for the length of `work`, and gives that work the
 * heavy statement limit. Refuses with `heavy.too_many` when the caller's slots are all taken —
 * on any instance: the slots live in the database, not in this process.
 */
export abstract class HeavyReads {
  abstract run<T>(callerId: string, work: () => Promise<T>): Promise<T>;
}

/**
 * Runs background work (the webhook worker, the sweepers, the stream access watch) on
 * connections of its own that requests cannot take, so a flood of requests never stalls it.
 */
export abstract class BackgroundWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
