import type { Subscriber } from 'rxjs';
import { Subject } from 'rxjs';
import { Notice, NoticeFeed, ReplicaReads } from '@board/kernel';
import type { StreamCredential } from '@board/persistence';
import type { StreamAccessWatch } from './stream-access.watch';
import { encode, PING_MS, RETRY_MS, StreamLine, StreamService } from './stream.service';

// The access watch is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));
jest.mock('./stream-access.watch', () => ({ StreamAccessWatch: class {} }));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

class SubjectFeed extends NoticeFeed {
  readonly notices = new Subject<Notice>();
  get stream() {
    return this.notices.asObservable();
  }
}

/** Read replicas as the stream sees them: off, or on with a `settled` the test resolves. */
function replicaReads(enabled: boolean) {
  const waits: Array<() => void> = [];
  const reads = { enabled, settled: () => new Promise<void>((resolve) => waits.push(resolve)) } as unknown as ReplicaReads;
  return { reads, waits };
}

function setUp(reads = replicaReads(false).reads) {
  const feed = new SubjectFeed();
  // The watch lets every line through until it is told to cut the stream (lost access).
  const gates: { out: Subscriber<StreamLine>; closed: boolean }[] = [];
  const access: Pick<StreamAccessWatch, 'watch'> = {
    watch: (_credential, _userId, _expiresAt, _checkedAt, out) => {
      const gate = { out, closed: false };
      gates.push(gate);
      return { deliver: (line) => out.next(line), close: () => void (gate.closed = true) };
    },
  };
  return { feed, gates, service: new StreamService(feed, access as StreamAccessWatch, reads) };
}

describe('StreamService', () => {
  it('opens with retry and ready, then the project’s changes and presence only, and ready again after a reconnect', () => {
    const { feed, service } = setUp();
    const lines: StreamLine[] = [];
    const sub = service.subscribe(PROJECT).subscribe((l) => lines.push(l));
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'board' } });
    feed.notices.next({ type: 'change', payload: { projectId: OTHER, scope: 'board' } });
    feed.notices.next({ type: 'presence', payload: { projectId: PROJECT, clientId: 'tab' } });
    feed.notices.next({ type: 'webhook' });
    feed.notices.next({ type: 'reconnected' });
    sub.unsubscribe();
    expect(lines).toEqual([
      { retry: RETRY_MS },
      { event: 'ready', data: {} },
      { event: 'change', data: { projectId: PROJECT, scope: 'board' } },
      { event: 'presence', data: { projectId: PROJECT, clientId: 'tab' } },
      { event: 'ready', data: {} },
    ]);
  });

  it('pings every interval', () => {
    jest.useFakeTimers();
    try {
      const { service } = setUp();
      const lines: StreamLine[] = [];
      const sub = service.subscribe(PROJECT).subscribe((l) => lines.push(l));
      jest.advanceTimersByTime(PING_MS * 2);
      sub.unsubscribe();
      expect(lines.slice(2)).toEqual([{ comment: 'ping' }, { comment: 'ping' }]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('ends every open stream at shutdown, and a stream opened after it at once', () => {
    const { service } = setUp();
    let ended = 0;
    service.subscribe(PROJECT).subscribe({ complete: () => ended++ });
    service.beforeApplicationShutdown();
    service.subscribe(PROJECT).subscribe({ complete: () => ended++ });
    expect(ended).toBe(2);
  });

  it('opens a stream behind its credential’s watch and closes the watch when the client goes', () => {
    const { feed, gates, service } = setUp();
    const credential: StreamCredential & { projectId: string } = { projectId: PROJECT, via: 'session', digest: 'd' };
    const lines: StreamLine[] = [];
    const sub = service.open(credential, 'ann', null, 0).subscribe((l) => lines.push(l));
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT } });
    expect(lines.map(encode)).toEqual([`retry: ${RETRY_MS}\n\n`, 'event: ready\ndata: {}\n\n', `event: change\ndata: {"projectId":"${PROJECT}"}\n\n`]);
    expect(gates.map((g) => g.closed)).toEqual([false]);
    sub.unsubscribe();
    expect(gates.map((g) => g.closed)).toEqual([true]);
  });

  describe('with read replicas', () => {
    it('sends ready once a re-read would show every write made before the subscription, the lines meanwhile after it', async () => {
      const { reads, waits } = replicaReads(true);
      const { feed, service } = setUp(reads);
      const lines: StreamLine[] = [];
      const sub = service.subscribe(PROJECT).subscribe((l) => lines.push(l));
      feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'board' } });
      expect(lines).toEqual([{ retry: RETRY_MS }]);
      expect(waits).toHaveLength(1);
      waits[0]();
      await Promise.resolve();
      feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'task' } });
      sub.unsubscribe();
      expect(lines).toEqual([
        { retry: RETRY_MS },
        { event: 'ready', data: {} },
        { event: 'change', data: { projectId: PROJECT, scope: 'board' } },
        { event: 'change', data: { projectId: PROJECT, scope: 'task' } },
      ]);
    });

    it('sends nothing more to a client gone while it waited', async () => {
      const { reads, waits } = replicaReads(true);
      const { service } = setUp(reads);
      const lines: StreamLine[] = [];
      service.subscribe(PROJECT).subscribe((l) => lines.push(l)).unsubscribe();
      waits[0]();
      await Promise.resolve();
      expect(lines).toEqual([{ retry: RETRY_MS }]);
    });
  });
});
