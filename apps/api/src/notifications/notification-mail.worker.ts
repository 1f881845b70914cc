import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import type { Subscription } from 'rxjs';
import { BackgroundWork, Clock, Liveness, Mailer, Metrics, NoticeFeed } from '@board/kernel';
import { MAILED_KINDS, NotificationMail, NotificationMailOutbox } from '@board/notifications';
import { AppConfig } from '../config/app-config';
import { describeFailure, MAIL_SHUTDOWN_WAIT_MS } from '../mail/background-mail';
import { notificationMail } from '../mail/messages';
import { RunningPasses } from '../system/running-passes';

/** How long a claim of a live instance holds a mail; an instance that dies leaves it to another much sooner (`Liveness`). */
export const MAIL_LEASE_MS = 60_000;
/** Tries before a mail is given up (logged). */
export const MAIL_TRIES = 5;
const CLAIM_BATCH = 20;

/**
 * Sends the mail of notifications after the write's COMMIT, never in its way: the write only
 * queues a row (`notification_mails`). Any instance sends: each hears every new notification and
 * claims due rows under a lease; a sweep every few seconds picks up what no notice woke (a
 * restart), and finding another instance dead makes it take over that one's mails at once. A mail
 * goes out at least once: exactly once unless an instance dies between the relay's acceptance and
 * removing the row. A mail that cannot be sent is logged and tried again later, then given up.
 * A stop claims nothing more and waits for the mails under way to be settled (the transport's
 * timeouts bound a send).
 */
@Injectable()
export class NotificationMailWorker implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('mail');
  private notices?: Subscription;
  private unsubscribeTakeover?: () => void;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly passes = new RunningPasses();
  /** A test shortens it to prove a dead sender's mail goes out. */
  leaseMs = MAIL_LEASE_MS;

  constructor(
    private readonly outbox: NotificationMailOutbox,
    private readonly mailer: Mailer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly feed: NoticeFeed,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
    private readonly liveness: Liveness,
  ) {}

  onModuleInit(): void {
    this.notices = this.feed.stream.subscribe((n) => {
      if (n.type === 'notification' && (MAILED_KINDS as readonly string[]).includes(n.payload.kind)) this.kick();
    });
    this.unsubscribeTakeover = this.liveness.onTakeover(() => this.kick());
  }

  async onModuleDestroy(): Promise<void> {
    this.notices?.unsubscribe();
    this.unsubscribeTakeover?.();
    if (!(await this.passes.stop(MAIL_SHUTDOWN_WAIT_MS))) this.logger.warn('a notification mail pass did not end in time at shutdown: the mails it holds are sent once this instance has left');
  }

  @Interval('notification-mail', 5000)
  sweep(): Promise<void> {
    this.kick();
    return this.running ?? Promise.resolve();
  }

  /** Sends what is due now; a kick while it runs makes it look once more. */
  private kick(): void {
    if (this.passes.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes.run(() => this.drain(), undefined).finally(() => (this.running = null));
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        let sent: number;
        do sent = await this.sendBatch();
        while (sent === CLAIM_BATCH && !this.passes.stopped);
      } catch (error) {
        this.logger.warn(`notification mail pass failed: ${(error as Error).message}`);
        return;
      }
    } while (this.again && !this.passes.stopped);
  }

  /** One claimed batch; answers how many were claimed. */
  async sendBatch(): Promise<number> {
    const holder = this.liveness.claimant();
    if (holder === null) return 0;
    const mails = await this.background.run(() => this.outbox.claim(this.clock.now(), this.leaseMs, CLAIM_BATCH, holder));
    this.metrics.jobsLeased('notification-mail', mails.length);
    await Promise.all(mails.map((mail) => this.deliver(mail, holder)));
    return mails.length;
  }

  /** Sends one claimed mail, unless the claim was lost meanwhile: then the instance that takes it over sends it. */
  private async deliver(mail: NotificationMail, holder: string): Promise<void> {
    if (!this.liveness.holds(holder)) return;
    // Without mail set up nothing may be sent: the queue is emptied, not kept.
    if (!this.mailer.configured) return this.settle(() => this.outbox.failed(mail, null));
    try {
      await this.mailer.send(notificationMail(mail.to, mail, this.taskUrl(mail)));
    } catch (error) {
      const giveUp = mail.tries >= MAIL_TRIES;
      this.logger.warn(`A notification mail could not be sent${giveUp ? ' (given up)' : ''}: ${describeFailure(error)}`);
      const retryAt = giveUp ? null : new Date(this.clock.now().getTime() + 30_000 * 2 ** (mail.tries - 1));
      return this.settle(() => this.outbox.failed(mail, retryAt));
    }
    await this.settle(() => this.outbox.sent(mail));
  }

  private settle(work: () => Promise<void>): Promise<void> {
    return this.background.run(work);
  }

  private taskUrl(mail: NotificationMail): string | null {
    const base = this.config.SERVICE_URL?.replace(/\/+$/, '');
    return base ? `${base}/p/${mail.projectId}?task=${mail.taskId}` : null;
  }
}
