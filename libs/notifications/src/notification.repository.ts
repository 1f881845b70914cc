/** A person's notifications as they change them: read marks, and the retention sweep. */
export abstract class NotificationRepository {
  /** Marks the person's own notifications read (`all`, or these ids; others' are ignored). */
  abstract markRead(userId: string, which: readonly string[] | 'all', now: Date): Promise<void>;
  /** Removes up to `limit` notifications made before `before`; answers how many went. */
  abstract purgeBatch(before: Date, limit: number): Promise<number>;
}

/** One queued mail of a notification, claimed under a lease. */
export interface NotificationMail {
  id: string;
  /** Proves the claim: only its holder may settle the mail. */
  lease: string;
  tries: number;
  to: string;
  kind: 'question' | 'mention';
  text: string;
  actorName: string;
  taskKey: string;
  taskId: string;
  projectId: string;
}

/**
 * Mail of notifications, queued in the write's transaction and sent after commit by any
 * instance: a claim holds a mail for a lease while its holder lives, so an instance that dies
 * mid-way leaves it to another within seconds (at least once; exactly once unless it died between
 * the relay's acceptance and `sent`).
 */
export abstract class NotificationMailOutbox {
  /** Due mails that no claim holds (none, one past its lease, or one whose holder died), now held by the instance `holder`. */
  abstract claim(now: Date, leaseMs: number, limit: number, holder: string): Promise<NotificationMail[]>;
  /** Removes the mail, if this lease still holds it. */
  abstract sent(mail: NotificationMail): Promise<void>;
  /** Sends it again at `retryAt` (this lease released), or drops it when `retryAt` is null. */
  abstract failed(mail: NotificationMail, retryAt: Date | null): Promise<void>;
}
