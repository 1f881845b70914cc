import { Injectable } from '@nestjs/common';
import { fail, parseId, readText } from '@board/kernel';
import { PresencePublisher } from '@board/persistence';
import { Writer } from '../auth/auth-context';

const FIELD = /^(title|description|checklist:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

@Injectable()
export class PresenceService {
  constructor(private readonly publisher: PresencePublisher) {}

  /** `{ clientId, taskId, field }`: taskId null means the tab closed the task. */
  async announce(writer: Writer, body: Record<string, unknown>): Promise<void> {
    const clientId = readText(body.clientId, 'clientId', { max: 200, required: true });
    const taskId = body.taskId === undefined || body.taskId === null ? null : parseId(body.taskId, 'task');
    let field: string | null = null;
    if (body.field !== undefined && body.field !== null) {
      if (typeof body.field !== 'string' || !FIELD.test(body.field)) {
        fail('presence.field_invalid');
      }
      field = (body.field as string).toLowerCase();
    }
    await this.publisher.publish({ projectId: writer.projectId, clientId, userId: writer.userId, taskId, field: taskId ? field : null });
  }
}
