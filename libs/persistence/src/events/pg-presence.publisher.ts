import { Injectable } from '@nestjs/common';
import { PresencePublisher, PresenceSignal } from '@board/kernel';
import { Database } from '../database';
import { PRESENCE_CHANNEL } from './pg-notification.listener';

/** Sends a presence signal to the streams of every instance (pg_notify on the presence channel). */
@Injectable()
export class PgPresencePublisher extends PresencePublisher {
  constructor(private readonly db: Database) {
    super();
  }

  async publish(signal: PresenceSignal): Promise<void> {
    const { projectId, clientId, userId, taskId, field } = signal;
    // Field order as the stream has always received it.
    await this.db.notify(PRESENCE_CHANNEL, JSON.stringify({ projectId, kind: 'presence', clientId, userId, taskId, field }));
  }
}
