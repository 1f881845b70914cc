import { Subject } from 'rxjs';
import { NoMetrics, Notice, NoticeFeed, StreamKind } from '@board/kernel';
import type { StreamCredential } from '@board/persistence';
import type { StreamAccessWatch } from './stream-access.watch';
import { encode, PING_MS, RETRY_MS, StreamService, StreamSink, StreamStart } from './stream.service';
import { InMemoryReplicaReads } from '../../../../test/support/in-memory/replica-reads';

// The access watch is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));
jest.mock('./stream-access.watch', () => ({ StreamAccessWatch: class {} }));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const OPENING = [encode({ retry: RETRY_MS }) + encode({ event: 'ready', data: {} })];
const READY = encode({ event: 'ready', data: {} });
const PING = ': ping\n\n';

class SubjectFeed extends NoticeFeed {
  readonly notices = new Subject<Notice>();
  get stream() {
    return this.notices.asObservable();
  }
  get listening() {
    return true;
  }
}

/** Keeps the open-streams gauge as the metrics adapter would. */
class OpenStreams extends NoMetrics {
  readonly open: Record<StreamKind, number> = { project: 0, personal: 0 };
  override streamOpened(kind: StreamKind): () => void {
    this.open[kind]++;
    return () => void this.open[kind]--;
  }
}

/** Read replicas as the stream sees them: off, or on with a `settled` the test resolves. */
function replicaReads(enabled: boolean) {
  const waits: Array<() => void> = [];
  const reads = new InMemoryReplicaReads(enabled, () => new Promise<void>((resolve) => waits.push(resolve)));
  return { reads, waits };
}

function setUp(reads = replicaReads(false).reads) {
  const feed = new SubjectFeed();
  // The watch lets every line through until it is told to cut the stream (lost access).
  const gates: { out: StreamSink; closed: boolean }[] = [];
  const access: Pick<StreamAccessWatch, 'watch'> = {
    watch: (_credential, _userId, _expiresAt, _checkedAt, out) => {
      const gate = { out, closed: false };
      gates.push(gate);
      return { deliver: (bytes) => !gate.closed && out.next(bytes), close: () => void (gate.closed = true) };
    },
  };
  const metrics = new OpenStreams();
  return { feed, gates, metrics, service: new StreamService(feed, access as StreamAccessWatch, metrics, reads) };
}

/** Runs a stream into a list, as `sendEvents` would into a socket. */
function run(start: StreamStart) {
  const lines: string[] = [];
  let ended = false;
  const stop = start({ next: (bytes) => lines.push(bytes.toString()), complete: () => (ended = true) });
  return { lines, stop, ended: () => ended };
}

const project = (projectId = PROJECT): StreamCredential & { projectId: string } => ({ projectId, via: 'session', digest: 'd' });
const own: StreamCredential & { projectId: null } = { projectId: null, via: 'session', digest: 'd' };

describe('StreamService', () => {
  afterEach(() => jest.useRealTimers());

  it('opens with retry and ready, then the project’s changes and presence only, and ready again after a reconnect', () => {
    const { feed, service } = setUp();
    const s = run(service.subscribe(PROJECT));
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'board' } });
    feed.notices.next({ type: 'change', payload: { projectId: OTHER, scope: 'board' } });
    feed.notices.next({ type: 'presence', payload: { projectId: PROJECT, clientId: 'tab' } });
    feed.notices.next({ type: 'webhook' });
    feed.notices.next({ type: 'notification', payload: { userId: 'ann', id: '1', kind: 'assigned', projectId: PROJECT, taskId: 't' } });
    feed.notices.next({ type: 'reconnected' });
    s.stop();
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'board' } });
    expect(s.lines).toEqual([
      ...OPENING,
      encode({ event: 'change', data: { projectId: PROJECT, scope: 'board' } }),
      encode({ event: 'presence', data: { projectId: PROJECT, clientId: 'tab' } }),
      READY,
    ]);
  });

  it('gives a person’s stream their notifications only, as { id, kind, projectId, taskId }, and ready after a reconnect', () => {
    const { feed, service } = setUp();
    const s = run(service.openPersonal(own, 'ann', null, 0));
    feed.notices.next({ type: 'notification', payload: { userId: 'bob', id: '1', kind: 'assigned', projectId: PROJECT, taskId: 't' } });
    feed.notices.next({ type: 'notification', payload: { userId: 'ann', id: '2', kind: 'mentioned', projectId: PROJECT, taskId: 't' } });
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT } });
    feed.notices.next({ type: 'reconnected' });
    expect(s.lines).toEqual([...OPENING, encode({ event: 'notification', data: { id: '2', kind: 'mentioned', projectId: PROJECT, taskId: 't' } }), READY]);
  });

  it('encodes a notice once for all the streams of its project', () => {
    const { feed, service } = setUp();
    const streams = [run(service.subscribe(PROJECT)), run(service.subscribe(PROJECT)), run(service.subscribe(PROJECT))];
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      feed.notices.next({ type: 'change', payload: { projectId: PROJECT, n: 1 } });
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
    expect(streams.map((s) => s.lines.at(-1))).toEqual(Array(3).fill(`event: change\ndata: {"projectId":"${PROJECT}","n":1}\n\n`));
  });

  it('pings each stream every interval, a whole interval after it opened, from one timer', () => {
    jest.useFakeTimers();
    const { service } = setUp();
    const first = run(service.subscribe(PROJECT));
    jest.advanceTimersByTime(10_000);
    const second = run(service.subscribe(OTHER));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(PING_MS - 10_000);
    expect([first.lines.slice(1), second.lines.slice(1)]).toEqual([[PING], []]);
    jest.advanceTimersByTime(10_000);
    expect([first.lines.slice(1), second.lines.slice(1)]).toEqual([[PING], [PING]]);
    jest.advanceTimersByTime(PING_MS);
    expect([first.lines.slice(1), second.lines.slice(1)]).toEqual([
      [PING, PING],
      [PING, PING],
    ]);
    first.stop();
    second.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends every open stream at shutdown, and a stream opened after it at once', () => {
    const { metrics, service } = setUp();
    const before = [run(service.open(project(), 'ann', null, 0)), run(service.openPersonal(own, 'ann', null, 0))];
    service.beforeApplicationShutdown();
    const after = run(service.subscribe(PROJECT));
    expect([...before, after].map((s) => s.ended())).toEqual([true, true, true]);
    expect(after.lines).toEqual([]);
    expect(metrics.open).toEqual({ project: 0, personal: 0 });
    expect(service.indexed).toEqual({ streams: 0, projects: 0, people: 0 });
  });

  it('opens a stream behind its credential’s watch and closes the watch when the client goes', () => {
    const { feed, gates, metrics, service } = setUp();
    const s = run(service.open(project(), 'ann', null, 0));
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT } });
    expect(s.lines).toEqual([...OPENING, `event: change\ndata: {"projectId":"${PROJECT}"}\n\n`]);
    expect(gates.map((g) => g.closed)).toEqual([false]);
    expect(metrics.open).toEqual({ project: 1, personal: 0 });
    s.stop();
    expect(gates.map((g) => g.closed)).toEqual([true]);
    expect(metrics.open).toEqual({ project: 0, personal: 0 });
  });

  it('takes a stream the watch ends out of the index and the count, and ends it', () => {
    const { feed, gates, metrics, service } = setUp();
    const s = run(service.open(project(), 'ann', null, 0));
    gates[0].out.complete();
    feed.notices.next({ type: 'change', payload: { projectId: PROJECT } });
    expect(s.ended()).toBe(true);
    expect(s.lines).toEqual(OPENING);
    expect(metrics.open).toEqual({ project: 0, personal: 0 });
    expect(service.indexed).toEqual({ streams: 0, projects: 0, people: 0 });
  });

  it('counts open streams by kind until they close, also when the server ends them', () => {
    const { metrics, service } = setUp();
    const personal = run(service.openPersonal(own, 'ann', null, 0));
    run(service.open(project(), 'ann', null, 0));
    expect(metrics.open).toEqual({ project: 1, personal: 1 });
    personal.stop();
    personal.stop();
    expect(metrics.open).toEqual({ project: 1, personal: 0 });
    service.beforeApplicationShutdown();
    expect(metrics.open).toEqual({ project: 0, personal: 0 });
  });

  it('keeps nothing of a thousand streams opened and closed: no index entry, no ping slot, no timer', () => {
    jest.useFakeTimers();
    const { feed, metrics, service } = setUp();
    const open = Array.from({ length: 1000 }, (_, i) =>
      run(i % 2 ? service.open(project(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`), `u${i}`, null, 0) : service.openPersonal(own, `u${i}`, null, 0)),
    );
    expect(service.indexed).toEqual({ streams: 1000, projects: 500, people: 500 });
    expect(metrics.open).toEqual({ project: 500, personal: 500 });
    for (const s of open) s.stop();
    expect(service.indexed).toEqual({ streams: 0, projects: 0, people: 0 });
    expect(metrics.open).toEqual({ project: 0, personal: 0 });
    expect(jest.getTimerCount()).toBe(0);
    feed.notices.next({ type: 'reconnected' });
    jest.advanceTimersByTime(PING_MS);
    expect(open.every((s) => s.lines.length === 1)).toBe(true);
  });

  describe('with read replicas', () => {
    it('sends ready once a re-read would show every write made before the stream opened, the lines meanwhile after it', async () => {
      const { reads, waits } = replicaReads(true);
      const { feed, service } = setUp(reads);
      const s = run(service.subscribe(PROJECT));
      feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'board' } });
      expect(s.lines).toEqual([encode({ retry: RETRY_MS })]);
      expect(waits).toHaveLength(1);
      waits[0]();
      await Promise.resolve();
      feed.notices.next({ type: 'change', payload: { projectId: PROJECT, scope: 'task' } });
      s.stop();
      expect(s.lines).toEqual([
        encode({ retry: RETRY_MS }),
        READY,
        encode({ event: 'change', data: { projectId: PROJECT, scope: 'board' } }),
        encode({ event: 'change', data: { projectId: PROJECT, scope: 'task' } }),
      ]);
    });

    it('sends nothing more to a client gone while it waited', async () => {
      const { reads, waits } = replicaReads(true);
      const { service } = setUp(reads);
      const s = run(service.subscribe(PROJECT));
      s.stop();
      waits[0]();
      await Promise.resolve();
      expect(s.lines).toEqual([encode({ retry: RETRY_MS })]);
    });
  });
});
