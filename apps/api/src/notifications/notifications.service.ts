import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { Clock, fail, parseId, silent, UnitOfWork } from '@board/kernel';
import { NotificationRepository } from '@board/notifications';
import { NotificationInboxQuery } from '@board/persistence';
import { StreamLine, StreamService } from '../events/stream.service';
import type { MarkReadBody, NotificationsQuery } from './notifications.dto';

/** Most ids one mark may name. */
export const MARK_MAX = 200;

/** A person's own notifications: the inbox, read marks, and the personal stream. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly inbox: NotificationInboxQuery,
    private readonly notifications: NotificationRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly streams: StreamService,
  ) {}

  list(userId: string, query: NotificationsQuery) {
    const before = query.before === undefined || query.before === null ? null : parseId(query.before, 'notification');
    return this.inbox.page(userId, before);
  }

  async markRead(userId: string, body: MarkReadBody): Promise<{ unread: number }> {
    const which = readMarks(body);
    // A personal mark: nobody else hears of it.
    await this.uow.write(async () => silent(await this.notifications.markRead(userId, which, this.clock.now())));
    return { unread: await this.inbox.unread(userId) };
  }

  /** The person's stream, behind their session: ended within about a second once it ends. */
  stream(userId: string, sessionDigest: string, expiresAt: Date | null, checkedAt: number): Observable<StreamLine> {
    return this.streams.openPersonal({ projectId: null, via: 'session', digest: sessionDigest }, userId, expiresAt, checkedAt);
  }
}

/** `{ all: true }`, else a list of at most 200 notification ids. */
function readMarks(body: MarkReadBody): readonly string[] | 'all' {
  if (body.all === true) return 'all';
  if (!Array.isArray(body.ids)) fail('notification.mark_nothing');
  if (body.ids.length > MARK_MAX) fail('notification.mark_too_many');
  return body.ids.map((id) => parseId(id, 'notification'));
}
