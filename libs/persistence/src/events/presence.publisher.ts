import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { PRESENCE_CHANNEL } from './pg-notification.listener';

/** Who has which task (and field) open in a tab: passed to every instance, never stored. */
export interface PresenceSignal {
  projectId: string;
  clientId: string;
  userId: string;
  taskId: string | null;
  field: string | null;
}

/** Sends a presence signal to the streams of every instance (pg_notify on the presence channel). */
@Injectable()
export class PresencePublisher {
  constructor(private readonly db: Database) {}

  async publish(signal: PresenceSignal): Promise<void> {
    const { projectId, clientId, userId, taskId, field } = signal;
    // Field order as the stream has always received it.
    await this.db.notify(PRESENCE_CHANNEL, JSON.stringify({ projectId, kind: 'presence', clientId, userId, taskId, field }));
  }
}
