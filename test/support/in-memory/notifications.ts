import type { NotificationInboxQuery, NotificationView } from '@board/persistence';
import { NotificationRepository } from '@board/notifications';
// The port file itself: it runs nothing (read-model-ports.test.ts), so the adapters stay unloaded.
import { INBOX_PAGE } from '../../../libs/persistence/src/notifications/notification-inbox.query';

/** A stored notification: what the inbox shows, whose it is, when it was made and read. */
export type StoredNotification = Omit<NotificationView, 'read' | 'at'> & { userId: string; createdAt: Date; readAt: Date | null };

/** NotificationRepository in memory. */
export class InMemoryNotificationRepository extends NotificationRepository {
  readonly rows: StoredNotification[] = [];

  async markRead(userId: string, which: readonly string[] | 'all', now: Date): Promise<void> {
    for (const n of this.rows) if (n.userId === userId && n.readAt === null && (which === 'all' || which.includes(n.id))) n.readAt = now;
  }

  async purgeBatch(before: Date, limit: number): Promise<number> {
    const gone = this.rows.filter((n) => n.createdAt < before).slice(0, limit);
    for (const n of gone) this.rows.splice(this.rows.indexOf(n), 1);
    return gone.length;
  }
}

/** The inbox over the in-memory notifications (every project and task is still there: membership is the SQL's). */
export class InMemoryNotificationInboxQuery implements NotificationInboxQuery {
  constructor(private readonly store: InMemoryNotificationRepository) {}

  async page(userId: string, before: string | null): Promise<{ notifications: NotificationView[]; unread: number; more: boolean }> {
    const mine = this.store.rows
      .filter((n) => n.userId === userId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    const cursor = before === null ? -1 : mine.findIndex((n) => n.id === before);
    const page = (before !== null && cursor < 0 ? [] : mine.slice(cursor + 1)).slice(0, INBOX_PAGE + 1);
    return {
      notifications: page.slice(0, INBOX_PAGE).map(({ userId: _u, createdAt, readAt, ...view }) => ({ ...view, at: createdAt.toISOString(), read: readAt !== null })),
      unread: await this.unread(userId),
      more: page.length > INBOX_PAGE,
    };
  }

  async unread(userId: string): Promise<number> {
    return this.store.rows.filter((n) => n.userId === userId && n.readAt === null).length;
  }
}
