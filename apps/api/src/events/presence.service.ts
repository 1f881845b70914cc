import { Injectable } from '@nestjs/common';
import { PresencePublisher } from '@board/persistence';
import { Writer } from '../auth/auth-context';
import { PresenceBody } from './events.dto';

@Injectable()
export class PresenceService {
  constructor(private readonly publisher: PresencePublisher) {}

  /** `{ clientId, taskId, field }`: taskId null means the tab closed the task (and so no field). */
  async announce(writer: Writer, body: PresenceBody): Promise<void> {
    const taskId = body.taskId ? body.taskId.toLowerCase() : null;
    const field = taskId && body.field ? body.field.toLowerCase() : null;
    await this.publisher.publish({ projectId: writer.projectId, clientId: body.clientId, userId: writer.userId, taskId, field });
  }
}
