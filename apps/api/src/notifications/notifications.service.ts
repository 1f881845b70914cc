import { Injectable } from '@nestjs/common';
import { Clock, silent, UnitOfWork } from '@board/kernel';
import { NotificationRepository } from '@board/notifications';
import { NotificationInboxQuery } from '@board/persistence';
import { StreamService, StreamStart } from '../events/stream.service';

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

  list(userId: string, { before = null }: { before?: string | null }) {
    return this.inbox.page(userId, before);
  }

  /** Every one of the person's notifications, or those named (others' ids are ignored). */
  async markRead(userId: string, marks: { all: boolean; ids?: readonly string[] }): Promise<{ unread: number }> {
    const which = marks.all ? 'all' : (marks.ids ?? []);
    // A personal mark: nobody else hears of it.
    await this.uow.write(async () => silent(await this.notifications.markRead(userId, which, this.clock.now())));
    return { unread: await this.inbox.unread(userId) };
  }

  /** The person's stream, behind their session: ended within about a second once it ends. */
  stream(userId: string, sessionDigest: string, expiresAt: Date | null, checkedAt: number): StreamStart {
    return this.streams.openPersonal({ projectId: null, via: 'session', digest: sessionDigest }, userId, expiresAt, checkedAt);
  }
}

