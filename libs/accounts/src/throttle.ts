import { Clock, fail, MINUTE } from '@board/kernel';

export type ThrottleFamily = 'register' | 'login' | 'reset' | 'forgot';

export const THROTTLE_LIMIT = 10;
export const THROTTLE_WINDOW_MS = 10 * MINUTE;

export abstract class ThrottleStore {
  /** The failures of a family and subject at or after `since`, oldest first (at most `limit`). */
  abstract recent(family: ThrottleFamily, subject: string, since: Date, limit: number): Promise<Date[]>;
  abstract record(family: ThrottleFamily, subject: string, at: Date): Promise<void>;
}

/**
 * Ten failures from one subject (an address, or for forgot also an email) in ten minutes: every
 * further try answers 429 until the oldest of those ten leaves the window.
 */
export class Throttle {
  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
  ) {}

  async check(family: ThrottleFamily, subject: string): Promise<void> {
    const now = this.clock.now().getTime();
    const recent = await this.store.recent(family, subject, new Date(now - THROTTLE_WINDOW_MS), THROTTLE_LIMIT);
    if (recent.length < THROTTLE_LIMIT) return;
    const clearsAt = recent[recent.length - THROTTLE_LIMIT].getTime() + THROTTLE_WINDOW_MS;
    const retryAfter = Math.max(1, Math.ceil((clearsAt - now) / 1000));
    fail('throttle.too_many', { minutes: Math.max(1, Math.ceil(retryAfter / 60)), retryAfter });
  }

  failure(family: ThrottleFamily, subject: string): Promise<void> {
    return this.store.record(family, subject, this.clock.now());
  }
}
