import { InviteMailRepository, InviteMailTake } from '@board/projects';

/** InviteMailRepository in memory: answers what the spec queues (`send` when nothing is queued), and keeps what it was asked. */
export class InMemoryInviteMailRepository extends InviteMailRepository {
  readonly asked: { projectId: string; email: string; senderId: string }[] = [];
  readonly answers: InviteMailTake[] = [];

  async take(mail: { projectId: string; email: string; senderId: string; now: Date }): Promise<InviteMailTake> {
    this.asked.push({ projectId: mail.projectId, email: mail.email, senderId: mail.senderId });
    return this.answers.shift() ?? { kind: 'send' };
  }

  async prune(): Promise<number> {
    return 0;
  }
}
