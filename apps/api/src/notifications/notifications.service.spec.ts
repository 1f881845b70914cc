import { Subject } from 'rxjs';
import { NoMetrics, type BackgroundWork, type Notice, type NoticeFeed } from '@board/kernel';
import type { StreamAccessQuery } from '@board/persistence';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryNotificationInboxQuery, InMemoryNotificationRepository, StoredNotification } from '../../../../test/support/in-memory/notifications';
import { InMemoryReplicaReads } from '../../../../test/support/in-memory/replica-reads';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { StreamAccessWatch } from '../events/stream-access.watch';
import { StreamService } from '../events/stream.service';
import { NotificationsService } from './notifications.service';

// The read models are in-memory fakes: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const ANN = 'ann';
const BEN = 'ben';
const PROJECT = '00000000-0000-4000-8000-000000000001';
const TASK = '00000000-0000-4000-8000-0000000000a1';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function setUp() {
  const store = new InMemoryNotificationRepository();
  const notification = (n: number, userId = ANN): StoredNotification => ({
    id: id(n), userId, kind: 'mention', text: `Note ${n}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)), readAt: null,
    project: { id: PROJECT, key: 'WEB', name: 'Web' }, task: { id: TASK, key: 'WEB-1', title: 'First' }, actor: { id: BEN, name: 'Ben', kind: 'human' },
  });
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock();
  const notices = new Subject<Notice>();
  const feed: NoticeFeed = { stream: notices.asObservable(), listening: true };
  // The session's stream stays open while the access check says so: here, always.
  const access: StreamAccessQuery = { stillAllowed: async (streams) => new Map(streams.map((_, i) => [i, null])) };
  const inline: BackgroundWork = { run: (work) => work() };
  const metrics = new NoMetrics();
  // No read replicas: the stream's lines go at once.
  const reads = new InMemoryReplicaReads();
  const streams = new StreamService(feed, new StreamAccessWatch(feed, access, clock, inline), metrics, reads);
  const service = new NotificationsService(new InMemoryNotificationInboxQuery(store), store, uow, clock, streams);
  return { store, notification, uow, clock, notices, service };
}

describe('NotificationsService', () => {
  describe('list', () => {
    it('reads the person’s own inbox, newest first, a page at a time from the cursor', async () => {
      const { store, notification, service } = setUp();
      for (let n = 1; n <= 52; n++) store.rows.push(notification(n));
      store.rows.push(notification(60, BEN));
      const first = await service.list(ANN, {});
      expect(first.notifications.map((n) => n.id)).toEqual(Array.from({ length: 50 }, (_, i) => id(52 - i)));
      expect(first).toMatchObject({ unread: 52, more: true });
      expect(first.notifications[0]).toMatchObject({ at: '2026-01-01T00:00:52.000Z', read: false, text: 'Note 52' });
      const next = await service.list(ANN, { before: id(3).toUpperCase() });
      expect(next.notifications.map((n) => n.id)).toEqual([id(2), id(1)]);
      expect(next.more).toBe(false);
    });

    // A cursor that is not an id is refused by the request DTO, before the service (e2e notifications).
  });

  describe('markRead', () => {
    it('marks the person’s own, named or all, telling nobody, and answers what is left unread', async () => {
      const { store, notification, uow, clock, service } = setUp();
      store.rows.push(notification(1), notification(2), notification(3), notification(4, BEN));
      expect(await service.markRead(ANN, { all: false, ids: [id(1), id(4)] })).toEqual({ unread: 2 });
      expect(store.rows.map((n) => n.readAt !== null)).toEqual([true, false, false, false]);
      expect(store.rows[0].readAt).toEqual(clock.now());
      expect(await service.markRead(ANN, { all: true })).toEqual({ unread: 0 });
      expect(store.rows[3].readAt).toBeNull();
      expect(uow.writes).toEqual([expect.objectContaining({ landed: true, events: [] }), expect.objectContaining({ landed: true, events: [] })]);
    });
    // Nothing named, too many ids and a bad id are refused by the request DTO, before the service
    // (test/e2e/notifications.test.ts checks those sentences through HTTP).
  });

  describe('stream', () => {
    it('opens the person’s stream: retry and ready, then their own new notifications only', () => {
      const { notices, service } = setUp();
      const lines: string[] = [];
      const stop = service.stream(ANN, 'digest', null, Date.now() - 10)({ next: (bytes) => lines.push(bytes.toString('utf8')), complete: () => undefined });
      notices.next({ type: 'notification', payload: { userId: ANN, id: id(1), kind: 'mention', projectId: PROJECT, taskId: TASK } });
      notices.next({ type: 'notification', payload: { userId: BEN, id: id(2), kind: 'mention', projectId: PROJECT, taskId: TASK } });
      stop();
      const wire = lines.join('');
      expect(wire).toMatch(/^retry: \d+\n\nevent: ready\ndata: \{\}\n\n/);
      expect(wire).toContain(`event: notification\ndata: ${JSON.stringify({ id: id(1), kind: 'mention', projectId: PROJECT, taskId: TASK })}\n\n`);
      expect(wire).not.toContain(id(2));
    });
  });
});
