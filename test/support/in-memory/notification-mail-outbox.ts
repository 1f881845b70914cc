import { NotificationMail, NotificationMailOutbox } from '@board/notifications';

/** A queued mail: what a claim answers, without its lease, and when it is due. */
export type QueuedMail = Omit<NotificationMail, 'lease'> & { dueAt: Date };

/** NotificationMailOutbox in memory: a claim holds a due mail until it is settled (no lease runs out, no holder dies here). */
export class InMemoryNotificationMailOutbox extends NotificationMailOutbox {
  readonly queued: QueuedMail[] = [];
  /** The lease of each claimed mail, by its id. */
  readonly leases = new Map<string, string>();
  /** Mails settled as sent, by id, in order. */
  readonly sentIds: string[] = [];
  private next = 0;

  /** Queues a mention for `to`, due at `dueAt`; answers its id. */
  queue(to: string, dueAt: Date): string {
    const id = `mail-${++this.next}`;
    this.queued.push({ id, tries: 0, to, kind: 'mention', text: `hello ${to}`, actorName: 'Olive', taskKey: 'ML-1', taskId: 'task-1', projectId: 'project-1', dueAt });
    return id;
  }

  async claim(now: Date, _leaseMs: number, limit: number): Promise<NotificationMail[]> {
    const due = this.queued.filter((m) => m.dueAt <= now && !this.leases.has(m.id)).slice(0, limit);
    return due.map((queued) => {
      // A claim counts the try, as the SQL's does.
      queued.tries += 1;
      const { dueAt: _due, ...mail } = queued;
      const lease = `lease-${++this.next}`;
      this.leases.set(mail.id, lease);
      return { ...mail, lease };
    });
  }

  async sent(mail: NotificationMail): Promise<void> {
    if (!this.settle(mail)) return;
    this.queued.splice(this.queued.findIndex((m) => m.id === mail.id), 1);
    this.sentIds.push(mail.id);
  }

  async failed(mail: NotificationMail, retryAt: Date | null): Promise<void> {
    if (!this.settle(mail)) return;
    const at = this.queued.findIndex((m) => m.id === mail.id);
    if (retryAt === null) this.queued.splice(at, 1);
    else this.queued[at].dueAt = retryAt;
  }

  /** Releases the claim if `mail`'s lease still holds it; answers whether it did. */
  private settle(mail: NotificationMail): boolean {
    if (this.leases.get(mail.id) !== mail.lease) return false;
    this.leases.delete(mail.id);
    return true;
  }
}
