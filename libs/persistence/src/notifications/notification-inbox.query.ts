import type { NotificationKind } from '@board/notifications';

export const INBOX_PAGE = 50;

export interface NotificationView {
  id: string;
  kind: NotificationKind;
  at: string;
  read: boolean;
  project: { id: string; key: string; name: string };
  task: { id: string; key: string; title: string };
  actor: { id: string; name: string; kind: 'human' | 'agent' } | null;
  text: string;
}

/**
 * What a person's inbox shows: their notifications of projects they are still in and of tasks not
 * deleted (a restored task's come back).
 */
export abstract class NotificationInboxQuery {
  /** A page of `INBOX_PAGE`, newest first, before the notification `before` (null: from the newest); with the unread count. */
  abstract page(userId: string, before: string | null): Promise<{ notifications: NotificationView[]; unread: number; more: boolean }>;

  abstract unread(userId: string): Promise<number>;
}
