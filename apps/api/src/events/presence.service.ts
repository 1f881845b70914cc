import { Injectable } from '@nestjs/common';
import { PresencePublisher } from '@board/kernel';
import { ProjectCaller } from '../auth/auth-context';
import { PresenceBody } from './events.dto';

@Injectable()
export class PresenceService {
  constructor(private readonly publisher: PresencePublisher) {}

  /** `{ clientId, taskId, field }`: taskId null means the tab closed the task (and so no field). */
  async announce(caller: ProjectCaller, body: PresenceBody): Promise<void> {
    const taskId = body.taskId ?? null;
    const field = (taskId && body.field) ?? null;
    await this.publisher.publish({ projectId: caller.projectId, clientId: body.clientId, userId: caller.userId, taskId, field });
  }
}
