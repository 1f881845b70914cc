import { Injectable } from '@nestjs/common';
import { Change } from '@board/kernel';
import { Database } from '../database';

export const CHANGE_CHANNEL = 'board_changes';

/**
 * pg_notify with the writing transaction's COMMIT: PostgreSQL delivers it at commit to every
 * listening instance. Called by the unit of work only, with the notices a write declared.
 */
@Injectable()
export class PgChangeAnnouncer {
  constructor(private readonly db: Database) {}

  async announce(change: Change): Promise<void> {
    await this.db.notify(CHANGE_CHANNEL, changePayload(change));
  }
}

/** The notice's text, as the listener of every instance reads it. */
export function changePayload(change: Change): string {
  const payload: Record<string, unknown> = { projectId: change.projectId, scope: change.scope, clientId: change.clientId };
  if (change.taskId) payload.taskId = change.taskId;
  return JSON.stringify(payload);
}
