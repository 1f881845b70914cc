import { Subject } from 'rxjs';
import { NoMetrics, Notice, NoticeFeed } from '@board/kernel';
import type { CredentialChanges, ResolvedScope, ScopeTarget } from '@board/persistence';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import type { AppConfig } from '../config/app-config';
import { CREDENTIAL_CACHE_ENTRIES, CredentialCache } from './credential-cache';

// The ports are typed fakes below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const P = '11111111-1111-4111-8111-111111111111';
const T = '22222222-2222-4222-8222-222222222222';

/** The notices of every instance, and whether they are being heard, as the test says. */
class Feed extends NoticeFeed {
  readonly notices = new Subject<Notice>();
  heard = true;
  get stream() {
    return this.notices.asObservable();
  }
  get listening() {
    return this.heard;
  }
}

/** This instance's own commits, told when the test says. */
class OwnCommits implements CredentialChanges {
  private readonly watchers = new Set<() => void>();
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
  commit(): void {
    for (const watcher of this.watchers) watcher();
  }
}

/** Counts hits and misses as the Prometheus adapter would. */
class Counted extends NoMetrics {
  readonly counted = { hit: 0, miss: 0 };
  override credentialChecked(outcome: 'hit' | 'miss'): void {
    this.counted[outcome]++;
  }
}

interface Answer {
  name: string;
  scope?: ResolvedScope;
}

function setUp(ttlMs = 5000) {
  const feed = new Feed();
  const own = new OwnCommits();
  const clock = new SteppedClock();
  const metrics = new Counted();
  const cache = new CredentialCache({ SERVICE_CREDENTIAL_CACHE_MS: ttlMs } as AppConfig, feed, own, clock, metrics);
  cache.onModuleInit();
  let asked = 0;
  /** The database: answers `answer` (a copy, so a kept one is told apart) and counts the questions. */
  const check =
    (answer: Answer | null = { name: 'Ann' }) =>
    async (): Promise<Answer | null> => {
      asked++;
      return answer && { ...answer };
    };
  const ask = (digest = 'd1', target?: ScopeTarget, answer?: Answer | null, endsAt?: Date) =>
    cache.answer('session', digest, target, check(answer), endsAt ? () => endsAt : undefined);
  return { feed, own, clock, metrics, cache, ask, check, asked: () => asked };
}

describe('CredentialCache', () => {
  it('answers a credential asked again within the time from memory, and asks again after it', async () => {
    const { ask, asked, clock, metrics } = setUp(5000);
    await ask();
    await ask();
    expect(asked()).toBe(1);
    clock.advance(4999);
    await ask();
    expect(asked()).toBe(1);
    clock.advance(1);
    await ask();
    expect(asked()).toBe(2);
    expect(metrics.counted).toEqual({ hit: 2, miss: 2 });
  });

  it('keeps nothing when the time is 0', async () => {
    const { ask, asked, cache, metrics } = setUp(0);
    await ask();
    await ask();
    expect(asked()).toBe(2);
    expect(cache.size).toBe(0);
    expect(metrics.counted).toEqual({ hit: 0, miss: 0 });
  });

  it('keeps answers apart by kind, digest and target', async () => {
    const { ask, asked, cache, check } = setUp();
    const project = { kind: 'project', id: P } as const;
    const member = { name: 'Ann', scope: { projectId: P, role: 'member' as const } };
    await ask('d1');
    await ask('d2');
    await ask('d1', project, member);
    await ask('d1', { kind: 'task', id: T }, member);
    await cache.answer('token', 'd1', undefined, check());
    expect(asked()).toBe(5);
    expect(await ask('d1', project, member)).toEqual(member);
    expect(asked()).toBe(5);
  });

  it('never keeps an unknown credential, a target that is not there or a caller who is not a member', async () => {
    const { ask, asked, cache } = setUp();
    const project = { kind: 'project', id: P } as const;
    for (let i = 0; i < 2; i++) {
      await ask('bogus', undefined, null);
      await ask('d1', project, { name: 'Ann', scope: { projectId: null, role: null } });
      await ask('d1', { kind: 'task', id: T }, { name: 'Ann', scope: { projectId: P, role: null } });
    }
    expect(asked()).toBe(6);
    expect(cache.size).toBe(0);
  });

  it('asks every time for targets whose removal rings no notice (a comment, a property)', async () => {
    const { ask, asked } = setUp();
    const member = { name: 'Ann', scope: { projectId: P, role: 'member' as const } };
    await ask('d1', { kind: 'comment', id: T }, member);
    await ask('d1', { kind: 'comment', id: T }, member);
    await ask('d1', { kind: 'restorableTask', id: T }, member);
    await ask('d1', { kind: 'restorableTask', id: T }, member);
    expect(asked()).toBe(4);
  });

  it('keeps a session’s answer no longer than the session', async () => {
    const { ask, asked, clock } = setUp(5000);
    const endsAt = new Date(clock.now().getTime() + 1000);
    await ask('d1', undefined, { name: 'Ann' }, endsAt);
    clock.advance(999);
    await ask('d1', undefined, { name: 'Ann' }, endsAt);
    expect(asked()).toBe(1);
    clock.advance(1);
    await ask('d1', undefined, { name: 'Ann' }, endsAt);
    expect(asked()).toBe(2);
  });

  it(`holds at most ${CREDENTIAL_CACHE_ENTRIES} answers, the least recently used going first`, async () => {
    const { ask, asked, cache } = setUp();
    for (let i = 0; i < CREDENTIAL_CACHE_ENTRIES; i++) await ask(`d${i}`);
    await ask('d0');
    await ask(`d${CREDENTIAL_CACHE_ENTRIES}`);
    expect(cache.size).toBe(CREDENTIAL_CACHE_ENTRIES);
    const before = asked();
    await ask('d0');
    expect(asked()).toBe(before);
    await ask('d1');
    expect(asked()).toBe(before + 1);
  });

  it.each([
    ['an access notice', (s: ReturnType<typeof setUp>) => s.feed.notices.next({ type: 'access', payload: { userId: 'u' } })],
    ['a credentials notice', (s: ReturnType<typeof setUp>) => s.feed.notices.next({ type: 'credentials', payload: { projectId: P } })],
    ['reconnected', (s: ReturnType<typeof setUp>) => s.feed.notices.next({ type: 'reconnected' })],
    ['a commit of this instance', (s: ReturnType<typeof setUp>) => s.own.commit()],
  ])('forgets everything on %s', async (_, announce) => {
    const s = setUp();
    await s.ask('d1');
    await s.ask('d2');
    announce(s);
    expect(s.cache.size).toBe(0);
    await s.ask('d1');
    expect(s.asked()).toBe(3);
  });

  it('hears nothing else as a reason to forget (a change, a webhook)', async () => {
    const s = setUp();
    await s.ask('d1');
    s.feed.notices.next({ type: 'change', payload: { projectId: P } });
    s.feed.notices.next({ type: 'webhook' });
    expect(s.cache.size).toBe(1);
  });

  it('does not keep an answer read before an announcement that came while it was asked', async () => {
    const s = setUp();
    let answer!: (a: Answer) => void;
    const pending = s.cache.answer('session', 'd1', undefined, () => new Promise<Answer>((r) => (answer = r)));
    s.feed.notices.next({ type: 'access', payload: { userId: 'u' } });
    answer({ name: 'Stale' });
    expect(await pending).toEqual({ name: 'Stale' });
    expect(s.cache.size).toBe(0);
    expect(await s.ask('d1')).toEqual({ name: 'Ann' });
  });

  it('neither uses nor keeps answers while notices are not heard, and forgets what it had', async () => {
    const s = setUp();
    await s.ask('d1');
    s.feed.heard = false;
    await s.ask('d1');
    await s.ask('d1');
    expect(s.asked()).toBe(3);
    expect(s.cache.size).toBe(0);
    s.feed.heard = true;
    await s.ask('d1');
    await s.ask('d1');
    expect(s.asked()).toBe(4);
  });

  it('does not keep an answer whose check outlived the listening connection', async () => {
    const s = setUp();
    let answer!: (a: Answer) => void;
    const pending = s.cache.answer('session', 'd1', undefined, () => new Promise<Answer>((r) => (answer = r)));
    s.feed.heard = false;
    answer({ name: 'Maybe stale' });
    await pending;
    expect(s.cache.size).toBe(0);
  });

  it('stops listening when the module goes', async () => {
    const s = setUp();
    s.cache.onModuleDestroy();
    await s.ask('d1');
    s.feed.notices.next({ type: 'reconnected' });
    s.own.commit();
    expect(s.cache.size).toBe(1);
  });
});
