import { Clock, DomainError, fail as refuse } from '@board/kernel';
import { Throttle, THROTTLE_LIMIT, THROTTLE_WINDOW_MS, ThrottleFamily, ThrottleRepository, ThrottleTake } from './throttle';

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

/** Like the PostgreSQL store: count and insert in one step (JavaScript runs it without interleaving). */
class MemoryThrottleRepository extends ThrottleRepository {
  readonly rows: { id: string; family: ThrottleFamily; subject: string; at: Date }[] = [];
  private next = 1;

  async take(family: ThrottleFamily, subject: string, at: Date, since: Date, limit: number): Promise<ThrottleTake> {
    const recent = this.rows
      .filter((r) => r.family === family && r.subject === subject && r.at.getTime() >= since.getTime())
      .map((r) => r.at)
      .sort((a, b) => a.getTime() - b.getTime())
      .slice(-limit);
    if (recent.length >= limit) return { counted: false, oldest: recent[0] };
    const id = String(this.next++);
    this.rows.push({ id, family, subject, at });
    return { counted: true, id };
  }

  async release(id: string): Promise<void> {
    const at = this.rows.findIndex((r) => r.id === id);
    if (at >= 0) this.rows.splice(at, 1);
  }

  async prune(before: Date): Promise<number> {
    const kept = this.rows.filter((r) => r.at.getTime() >= before.getTime());
    const pruned = this.rows.length - kept.length;
    this.rows.splice(0, this.rows.length, ...kept);
    return pruned;
  }
}

const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const SECOND = 1000;
const IP = '203.0.113.7';

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('attempt did not throw');
}

describe('Throttle', () => {
  let clock: FakeClock;
  let store: MemoryThrottleRepository;
  let throttle: Throttle;

  beforeEach(() => {
    clock = new FakeClock(T0);
    store = new MemoryThrottleRepository();
    throttle = new Throttle(store, clock);
  });

  const failing = () => refuse('account.login_failed');
  const passing = async () => 'ok';

  /** `n` failed tries ten seconds apart, starting now. */
  async function failTimes(n: number, family: ThrottleFamily = 'login', subject = IP): Promise<void> {
    for (let i = 0; i < n; i++) {
      if (i > 0) clock.advance(10 * SECOND);
      await refusal(throttle.attempt(family, subject, async () => failing()));
    }
  }

  it('allows ten tries in ten minutes', () => {
    expect(THROTTLE_LIMIT).toBe(10);
    expect(THROTTLE_WINDOW_MS).toBe(10 * 60 * SECOND);
  });

  it('judges the tenth try after nine failures', async () => {
    await failTimes(9);
    await expect(throttle.attempt('login', IP, passing)).resolves.toBe('ok');
    expect(store.rows).toHaveLength(9);
    expect(store.rows[8].at.getTime()).toBe(T0 + 80 * SECOND);
  });

  it('refuses after the tenth failure without running the work, with minutes and retryAfter from the oldest of the ten', async () => {
    await failTimes(10); // at T0, T0+10s, …, T0+90s; now is T0+90s
    const work = jest.fn(passing);
    const e = await refusal(throttle.attempt('login', IP, work));
    expect(work).not.toHaveBeenCalled();
    expect(e.code).toBe('throttle.too_many');
    // the oldest (T0) leaves the window at T0+600s: 510 s from now, which rounds up to 9 minutes
    expect(e.params).toEqual({ minutes: 9, retryAfter: 510 });
    expect(store.rows).toHaveLength(10);
  });

  it('counts a try before judging it: of fifty at once, ten are judged', async () => {
    let judged = 0;
    const slow = async () => {
      judged++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return failing();
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => throttle.attempt('login', IP, slow)));
    const codes = outcomes.map((o) => ((o as PromiseRejectedResult).reason as DomainError).code);
    expect(judged).toBe(10);
    expect(codes.filter((c) => c === 'account.login_failed')).toHaveLength(10);
    expect(codes.filter((c) => c === 'throttle.too_many')).toHaveLength(40);
  });

  it('holds a slot while a try is judged, and gives it back when the try succeeds', async () => {
    await failTimes(9);
    let finish!: () => void;
    const pending = throttle.attempt('login', IP, () => new Promise<string>((resolve) => (finish = () => resolve('ok'))));
    await new Promise((resolve) => setImmediate(resolve));
    // The tenth slot is held by the try in flight.
    expect((await refusal(throttle.attempt('login', IP, passing))).code).toBe('throttle.too_many');
    finish();
    await expect(pending).resolves.toBe('ok');
    expect(store.rows).toHaveLength(9);
    await expect(throttle.attempt('login', IP, passing)).resolves.toBe('ok');
  });

  it('keeps only the refusals `counts` names, and takes back errors that are not refusals', async () => {
    const counts = (e: DomainError) => e.code === 'reset.dead_link';
    await refusal(throttle.attempt('reset', IP, async () => refuse('account.password_short'), { counts }));
    await refusal(throttle.attempt('reset', IP, async () => refuse('reset.dead_link'), { counts }));
    await expect(throttle.attempt('reset', IP, async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(store.rows).toHaveLength(1);
  });

  it('with keepSuccess counts every try, and with several subjects takes all or none', async () => {
    for (let i = 0; i < 10; i++) await throttle.attempt('forgot', ['ip-a', 'x@example.test'], passing, { keepSuccess: true });
    expect(store.rows).toHaveLength(20);
    // The email is full: another address asking for it is refused, and its own count goes back.
    const e = await refusal(throttle.attempt('forgot', ['ip-b', 'x@example.test'], passing, { keepSuccess: true }));
    expect(e.code).toBe('throttle.too_many');
    expect(store.rows.filter((r) => r.subject === 'ip-b')).toHaveLength(0);
    // The address is full too: refused whatever the email.
    expect((await refusal(throttle.attempt('forgot', ['ip-a', 'y@example.test'], passing, { keepSuccess: true }))).code).toBe('throttle.too_many');
    expect(store.rows.filter((r) => r.subject === 'y@example.test')).toHaveLength(0);
  });

  it('counts down as time passes, never below one second or one minute', async () => {
    await failTimes(10);
    clock.set(T0 + 545 * SECOND);
    expect((await refusal(throttle.attempt('login', IP, passing))).params).toEqual({ minutes: 1, retryAfter: 55 });
    clock.set(T0 + 539 * SECOND);
    expect((await refusal(throttle.attempt('login', IP, passing))).params).toEqual({ minutes: 2, retryAfter: 61 });
    clock.set(T0 + THROTTLE_WINDOW_MS);
    expect((await refusal(throttle.attempt('login', IP, passing))).params).toEqual({ minutes: 1, retryAfter: 1 });
  });

  it('clears once the oldest of the ten leaves the window', async () => {
    await failTimes(10);
    clock.set(T0 + THROTTLE_WINDOW_MS + 1);
    // one more failure brings it back to ten within the window (T0+10s … T0+90s, and now)
    await refusal(throttle.attempt('login', IP, async () => failing()));
    const e = await refusal(throttle.attempt('login', IP, passing));
    expect(e.params).toEqual({ minutes: 1, retryAfter: 10 });
  });

  it('uses the oldest of the last ten, not an older failure', async () => {
    // Eleven in the window (a store may hold more than ten, e.g. rows written before the limit held).
    store.rows.push({ id: 'old', family: 'login', subject: IP, at: new Date(T0) });
    for (let i = 0; i < 10; i++) store.rows.push({ id: `n${i}`, family: 'login', subject: IP, at: new Date(T0 + (100 + 10 * i) * SECOND) });
    clock.set(T0 + 190 * SECOND);
    const e = await refusal(throttle.attempt('login', IP, passing));
    // clears at T0+100s+600s = T0+700s; now T0+190s
    expect(e.params).toEqual({ minutes: 9, retryAfter: 510 });
  });

  it('keeps families and subjects apart', async () => {
    await failTimes(10, 'login', IP);
    await expect(throttle.attempt('login', '198.51.100.1', passing)).resolves.toBe('ok');
    await expect(throttle.attempt('register', IP, passing)).resolves.toBe('ok');
    await expect(throttle.attempt('forgot', IP, passing)).resolves.toBe('ok');
    expect((await refusal(throttle.attempt('login', IP, passing))).code).toBe('throttle.too_many');
  });

  it('records each failure at the clock time', async () => {
    clock.set(T0 + 42 * SECOND);
    await refusal(throttle.attempt('reset', 'x', async () => refuse('reset.dead_link')));
    expect(store.rows).toEqual([{ id: '1', family: 'reset', subject: 'x', at: new Date(T0 + 42 * SECOND) }]);
  });
});
