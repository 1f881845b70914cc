import { Clock, DomainError, fail, MINUTE } from '@board/kernel';

export type ThrottleFamily = 'register' | 'login' | 'reset' | 'forgot';

export const THROTTLE_LIMIT = 10;
export const THROTTLE_WINDOW_MS = 10 * MINUTE;

/** A counted try: its id lets the try be taken back when it turns out not to be a failure. */
export type ThrottleTake = { counted: true; id: string } | { counted: false; oldest: Date };

export abstract class ThrottleRepository {
  /**
   * Counts one try of a family and subject at `at`, atomically: unless `limit` tries are already
   * counted at or after `since` (then it answers the oldest of the newest `limit`, and counts
   * nothing). Concurrent takes of one subject must never admit more than `limit` between them.
   */
  abstract take(family: ThrottleFamily, subject: string, at: Date, since: Date, limit: number): Promise<ThrottleTake>;
  /** Takes a counted try back (a success, or a refusal that is not a failure). */
  abstract release(id: string): Promise<void>;
  /** Forgets tries counted before `before` (the retention sweep); answers how many. */
  abstract prune(before: Date): Promise<number>;
}

export interface AttemptOptions {
  /** Which refusals stay counted as failures; every domain refusal by default. */
  counts?: (error: DomainError) => boolean;
  /** Keep the try counted even when it succeeds (forgot: every request counts). */
  keepSuccess?: boolean;
}

/**
 * At most ten judged tries from one subject (an address, or for forgot also an email) in ten
 * minutes, however many arrive at once: a try is counted before it is judged, so the eleventh
 * concurrent try answers 429 without being judged (no password check). A try that succeeds is
 * taken back, so at rest the count is the failures of the window; once it holds ten, every
 * further try answers 429 until the oldest of those ten leaves the window.
 */
export class Throttle {
  constructor(
    private readonly store: ThrottleRepository,
    private readonly clock: Clock,
  ) {}

  /** Counts a try for each subject (all or none), runs `work`, and keeps or takes back the counts. */
  async attempt<T>(family: ThrottleFamily, subjects: string | string[], work: () => Promise<T>, options: AttemptOptions = {}): Promise<T> {
    const ids = await this.take(family, Array.isArray(subjects) ? subjects : [subjects]);
    let keep = false;
    try {
      const result = await work();
      keep = options.keepSuccess === true;
      return result;
    } catch (error) {
      keep = error instanceof DomainError && (options.counts ? options.counts(error) : true);
      throw error;
    } finally {
      if (!keep) await this.release(ids);
    }
  }

  private async take(family: ThrottleFamily, subjects: string[]): Promise<string[]> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
    const ids: string[] = [];
    for (const subject of subjects) {
      const taken = await this.store.take(family, subject, now, since, THROTTLE_LIMIT);
      if (taken.counted) {
        ids.push(taken.id);
        continue;
      }
      // One subject full: the try is refused, and the counts it took on the others go back.
      await this.release(ids);
      const retryAfter = Math.max(1, Math.ceil((taken.oldest.getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
      fail('throttle.too_many', { minutes: Math.max(1, Math.ceil(retryAfter / 60)), retryAfter });
    }
    return ids;
  }

  private async release(ids: string[]): Promise<void> {
    for (const id of ids) await this.store.release(id);
  }
}
