import { Clock, DomainError } from '@board/kernel';
import { Throttle, THROTTLE_LIMIT, THROTTLE_WINDOW_MS, ThrottleFamily, ThrottleStore } from './throttle';

class FakeClock extends Clock {
  constructor(private at: number) {
    super();
  }
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
  set(ms: number): void {
    this.at = ms;
  }
}

/** Like the PostgreSQL store: the newest `limit` failures at or after `since`, oldest first. */
class MemoryThrottleStore extends ThrottleStore {
  readonly rows: { family: ThrottleFamily; subject: string; at: Date }[] = [];

  async recent(family: ThrottleFamily, subject: string, since: Date, limit: number): Promise<Date[]> {
    return this.rows
      .filter((r) => r.family === family && r.subject === subject && r.at.getTime() >= since.getTime())
      .map((r) => r.at)
      .sort((a, b) => a.getTime() - b.getTime())
      .slice(-limit);
  }

  async record(family: ThrottleFamily, subject: string, at: Date): Promise<void> {
    this.rows.push({ family, subject, at });
  }
}

const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const SECOND = 1000;

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('check did not throw');
}

describe('Throttle', () => {
  let clock: FakeClock;
  let store: MemoryThrottleStore;
  let throttle: Throttle;

  beforeEach(() => {
    clock = new FakeClock(T0);
    store = new MemoryThrottleStore();
    throttle = new Throttle(store, clock);
  });

  /** `n` failures ten seconds apart, starting now. */
  async function fail(n: number, family: ThrottleFamily = 'login', subject = '203.0.113.7'): Promise<void> {
    for (let i = 0; i < n; i++) {
      if (i > 0) clock.advance(10 * SECOND);
      await throttle.failure(family, subject);
    }
  }

  it('allows ten tries in ten minutes', () => {
    expect(THROTTLE_LIMIT).toBe(10);
    expect(THROTTLE_WINDOW_MS).toBe(10 * 60 * SECOND);
  });

  it('lets a subject through after nine failures', async () => {
    await fail(9);
    await expect(throttle.check('login', '203.0.113.7')).resolves.toBeUndefined();
    expect(store.rows).toHaveLength(9);
    expect(store.rows[8].at.getTime()).toBe(T0 + 80 * SECOND);
  });

  it('refuses after the tenth failure, with minutes and retryAfter from the oldest of the ten', async () => {
    await fail(10); // at T0, T0+10s, …, T0+90s; now is T0+90s
    const e = await refusal(throttle.check('login', '203.0.113.7'));
    expect(e.code).toBe('throttle.too_many');
    // the oldest (T0) leaves the window at T0+600s: 510 s from now, which rounds up to 9 minutes
    expect(e.params).toEqual({ minutes: 9, retryAfter: 510 });
  });

  it('counts down as time passes, never below one second or one minute', async () => {
    await fail(10);
    clock.set(T0 + 545 * SECOND);
    expect((await refusal(throttle.check('login', '203.0.113.7'))).params).toEqual({ minutes: 1, retryAfter: 55 });
    clock.set(T0 + 539 * SECOND);
    expect((await refusal(throttle.check('login', '203.0.113.7'))).params).toEqual({ minutes: 2, retryAfter: 61 });
    clock.set(T0 + THROTTLE_WINDOW_MS);
    expect((await refusal(throttle.check('login', '203.0.113.7'))).params).toEqual({ minutes: 1, retryAfter: 1 });
  });

  it('clears once the oldest of the ten leaves the window', async () => {
    await fail(10);
    clock.set(T0 + THROTTLE_WINDOW_MS + 1);
    await expect(throttle.check('login', '203.0.113.7')).resolves.toBeUndefined();
    // one more failure brings it back to ten within the window (T0+10s … T0+90s, and now)
    await throttle.failure('login', '203.0.113.7');
    const e = await refusal(throttle.check('login', '203.0.113.7'));
    expect(e.params).toEqual({ minutes: 1, retryAfter: 10 });
  });

  it('uses the oldest of the last ten, not an older failure', async () => {
    await throttle.failure('login', '203.0.113.7'); // T0
    clock.set(T0 + 100 * SECOND);
    await fail(10); // T0+100s … T0+190s
    const e = await refusal(throttle.check('login', '203.0.113.7'));
    // clears at T0+100s+600s = T0+700s; now T0+190s
    expect(e.params).toEqual({ minutes: 9, retryAfter: 510 });
  });

  it('keeps families and subjects apart', async () => {
    await fail(10, 'login', '203.0.113.7');
    await expect(throttle.check('login', '198.51.100.1')).resolves.toBeUndefined();
    await expect(throttle.check('register', '203.0.113.7')).resolves.toBeUndefined();
    await expect(throttle.check('forgot', '203.0.113.7')).resolves.toBeUndefined();
    await expect(refusal(throttle.check('login', '203.0.113.7'))).resolves.toHaveProperty('code', 'throttle.too_many');
  });

  it('records each failure at the clock time', async () => {
    clock.set(T0 + 42 * SECOND);
    await throttle.failure('reset', 'x');
    expect(store.rows).toEqual([{ family: 'reset', subject: 'x', at: new Date(T0 + 42 * SECOND) }]);
  });
});
