import { Observable, Subject } from 'rxjs';
import type { BackgroundWork, Notice, NoticeFeed } from '@board/kernel';
import type { StreamAccessQuery, StreamCredential } from '@board/persistence';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { StreamAccessWatch, StreamGate } from './stream-access.watch';
import { encode } from './stream.service';

// The read model is a typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const P = '11111111-1111-4111-8111-111111111111';
const Q = '22222222-2222-4222-8222-222222222222';
const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OTHER = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

/** A query whose answers the test hands out one by one. */
class FakeQueries implements StreamAccessQuery {
  calls: { streams: readonly StreamCredential[]; answer: (allowed: boolean[]) => void }[] = [];
  stillAllowed(streams: readonly StreamCredential[]): Promise<Map<number, Date | null>> {
    return new Promise((resolve) => {
      this.calls.push({ streams, answer: (allowed) => resolve(new Map(allowed.flatMap((ok, i) => (ok ? [[i, null] as const] : [])))) });
    });
  }
}

const tick = () => new Promise((r) => setImmediate(r));
const line = (n: number): Buffer => Buffer.from(encode({ event: 'change', data: { n } }));

describe('StreamAccessWatch', () => {
  let notices: Subject<Notice>;
  let queries: FakeQueries;
  let clock: SteppedClock;
  let watch: StreamAccessWatch;

  beforeEach(() => {
    notices = new Subject<Notice>();
    queries = new FakeQueries();
    clock = new SteppedClock(new Date('2026-01-01T00:00:00Z'));
    const feed: NoticeFeed = { stream: notices.asObservable(), listening: true };
    const inline: BackgroundWork = { run: (work) => work() };
    watch = new StreamAccessWatch(feed, queries, clock, inline);
    watch.onModuleInit();
  });
  afterEach(async () => {
    // A stop waits for the check under way: the checks a test left unanswered answer now.
    const stopping = watch.onModuleDestroy();
    for (const call of queries.calls) call.answer([]);
    await stopping;
  });

  function open(projectId = P, userId = ME, expiresAt: Date | null = null, checkedAt = Date.now(), digest = 'd') {
    const seen: Buffer[] = [];
    let ended = false;
    let gate!: StreamGate;
    new Observable<Buffer>((out) => {
      gate = watch.watch({ projectId, via: 'session', digest }, userId, expiresAt, checkedAt, out);
      return () => gate.close();
    }).subscribe({ next: (l) => seen.push(l), complete: () => (ended = true) });
    return { seen, gate, ended: () => ended };
  }

  const access = (payload: { projectId?: string; userId?: string }) => notices.next({ type: 'access', payload });

  it('holds a stream on a notice about its person until the check, then lets the held lines through in order', async () => {
    const s = open(P, ME, null, Date.now() - 10);
    s.gate.deliver(line(1));
    access({ userId: ME });
    s.gate.deliver(line(2));
    s.gate.deliver(line(3));
    expect(s.seen).toEqual([line(1)]);
    expect(queries.calls).toHaveLength(1);
    queries.calls[0].answer([true]);
    await tick();
    expect(s.seen).toEqual([line(1), line(2), line(3)]);
    expect(s.ended()).toBe(false);
  });

  it('ends a stream that lost access without a line written after the notice', async () => {
    const s = open(P, ME, null, Date.now() - 10);
    access({ projectId: P, userId: ME });
    s.gate.deliver(line(1));
    queries.calls[0].answer([false]);
    await tick();
    expect(s.seen).toEqual([]);
    expect(s.ended()).toBe(true);
    s.gate.deliver(line(2));
    expect(s.seen).toEqual([]);
  });

  it('leaves streams of other people and other projects flowing', () => {
    const mine = open(P, ME, null, Date.now() - 10);
    const other = open(Q, ME, null, Date.now() - 10);
    access({ userId: OTHER });
    access({ projectId: Q, userId: ME });
    mine.gate.deliver(line(1));
    other.gate.deliver(line(1));
    expect(mine.seen).toEqual([line(1)]);
    expect(other.seen).toEqual([]);
  });

  it('keeps a stream held when another notice comes while its check is under way, and checks again', async () => {
    const s = open(P, ME, null, Date.now() - 10);
    access({ userId: ME });
    access({ userId: ME }); // arrives while the first query runs: that query may not see it
    s.gate.deliver(line(1));
    queries.calls[0].answer([true]);
    await tick();
    expect(s.seen).toEqual([]);
    expect(queries.calls).toHaveLength(2);
    queries.calls[1].answer([false]);
    await tick();
    expect(s.seen).toEqual([]);
    expect(s.ended()).toBe(true);
  });

  it('checks at once a stream whose credential was checked before the last notice arrived', async () => {
    const checkedAt = Date.now() - 50;
    access({ userId: OTHER });
    const s = open(P, ME, null, checkedAt);
    s.gate.deliver(line(1));
    expect(s.seen).toEqual([]);
    expect(queries.calls.at(-1)!.streams).toHaveLength(1);
    queries.calls.at(-1)!.answer([false]);
    await tick();
    expect(s.ended()).toBe(true);
  });

  it('ends a session stream at its expiry, before a line passes', () => {
    const s = open(P, ME, new Date(clock.now().getTime() + 1000), Date.now() - 10);
    s.gate.deliver(line(1));
    clock.advance(1000);
    s.gate.deliver(line(2));
    expect(s.seen).toEqual([line(1)]);
    expect(s.ended()).toBe(true);
  });

  it('holds every stream after the listener reconnected (notices may have been lost)', () => {
    const a = open(P, ME, null, Date.now() - 10);
    const b = open(Q, OTHER, null, Date.now() - 10);
    notices.next({ type: 'reconnected' });
    a.gate.deliver(line(1));
    b.gate.deliver(line(1));
    expect([a.seen, b.seen]).toEqual([[], []]);
    expect(queries.calls[0].streams).toHaveLength(2);
  });

  it('asks once for the streams that share a credential, and answers each of them', async () => {
    const tabs = [open(P, ME, null, Date.now() - 10), open(P, ME, null, Date.now() - 10)];
    const elsewhere = open(Q, ME, null, Date.now() - 10);
    const otherSession = open(P, ME, null, Date.now() - 10, 'e');
    notices.next({ type: 'reconnected' });
    expect(queries.calls[0].streams).toEqual([
      { projectId: P, via: 'session', digest: 'd' },
      { projectId: Q, via: 'session', digest: 'd' },
      { projectId: P, via: 'session', digest: 'e' },
    ]);
    queries.calls[0].answer([false, true, true]);
    await tick();
    expect(tabs.map((t) => t.ended())).toEqual([true, true]);
    expect([elsewhere.ended(), otherSession.ended()]).toEqual([false, false]);
  });

  it('stops: waits for the check under way and asks nothing more; a stream still in doubt stays held', async () => {
    const s = open(P, ME, null, Date.now() - 10);
    access({ userId: ME });
    s.gate.deliver(line(1));
    // Another notice while the check is under way: the stream needs a check after it.
    access({ userId: ME });
    let stopped = false;
    const stopping = watch.onModuleDestroy().then(() => (stopped = true));
    await tick();
    expect(stopped).toBe(false);
    queries.calls[0].answer([true]);
    await stopping;
    await tick();
    // The shutdown ends it next (StreamService.beforeApplicationShutdown).
    expect(queries.calls).toHaveLength(1);
    expect(s.seen).toEqual([]);
    expect(s.ended()).toBe(false);
  });
});
