import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { Observable, Subject } from 'rxjs';
import { DataSource } from 'typeorm';
import { CHANGE_CHANNEL } from '../activity/pg-change.announcer';
import { WEBHOOK_CHANNEL } from '../activity/pg-activity.recorder';
import { compile, sql } from '../sql';
import { DatabaseLanes } from '../lanes';
import { NOTIFICATION_CHANNEL } from '../notifications/notifications.sql';
import { Notice, NoticeFeed } from '@board/kernel';

export const PRESENCE_CHANNEL = 'board_presence';
/** Rung by database triggers when a membership, session, agent token or project is deleted (migration 1764547200000). */
export const ACCESS_CHANNEL = 'board_access';
/** Rung by database triggers when a cached credential check's answer changed otherwise (migration 1765001800000). */
export const CREDENTIALS_CHANNEL = 'board_credentials';

/**
 * One dedicated connection per instance LISTENs for the stream channels and fans notices out.
 * PostgreSQL delivers a pg_notify at commit to every listening instance, so a write on any
 * instance reaches every subscriber. The connection reconnects by itself.
 */
@Injectable()
export class PgNotificationListener extends NoticeFeed implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('listener');
  private readonly notices = new Subject<Notice>();
  private client: Client | null = null;
  private stopped = false;
  private retryMs = 250;
  private everConnected = false;
  private timer: NodeJS.Timeout | null = null;
  /** Notices waiting for the replicas (see `emit`), in the order they arrived. */
  private arrived: Notice[] = [];
  private settling = false;
  /** Notices flow: connected, and `reconnected` handed to subscribers after a loss (`listening`). */
  private flowing = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly lanes: DatabaseLanes,
  ) {
    super();
  }

  get stream(): Observable<Notice> {
    return this.notices.asObservable();
  }

  get listening(): boolean {
    return this.flowing;
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.flowing = false;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    this.notices.complete();
  }

  /** Drops the connection as a network cut would (tests use it to prove the reconnect). */
  async dropConnectionForTest(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const pid = (client as unknown as { processID?: number }).processID;
    const { text, values } = compile(sql`SELECT pg_terminate_backend(${pid})`);
    await this.dataSource.query(text, values);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    // Never through a transaction-mode pooler: LISTEN belongs to a session.
    const client = new Client({ connectionString: this.lanes.shape.listenUrl, application_name: 'task-board-listener' });
    // A pg client may emit 'error' more than once: keep a listener for its whole life.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    client.on('notification', (message) => this.deliver(message.channel, message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      await client.query(`LISTEN ${PRESENCE_CHANNEL}`);
      await client.query(`LISTEN ${WEBHOOK_CHANNEL}`);
      await client.query(`LISTEN ${ACCESS_CHANNEL}`);
      await client.query(`LISTEN ${NOTIFICATION_CHANNEL}`);
      await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      if (this.client === null) this.schedule();
      if (!this.everConnected && !this.stopped) this.logger.warn(`listen failed: ${(error as Error).message}`);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 250;
    // The first connection misses nothing (nothing was kept before it); after a loss, notices flow
    // again only once subscribers have been told `reconnected` (see `hand`).
    if (this.everConnected) this.emit({ type: 'reconnected' });
    else this.flowing = true;
    this.everConnected = true;
  }

  private lost(client: Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.flowing = false;
    if (this.stopped) return;
    this.logger.warn(`listener connection lost${error ? `: ${error.message}` : ''}; reconnecting`);
    client.end().catch(() => undefined);
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 5000);
  }

  private deliver(channel: string, payload: string | undefined): void {
    if (channel === WEBHOOK_CHANNEL) {
      this.emit({ type: 'webhook' });
      return;
    }
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(payload ?? '{}');
    } catch {
      return;
    }
    if (channel === CHANGE_CHANNEL) this.emit({ type: 'change', payload: data });
    else if (channel === PRESENCE_CHANNEL) this.emit({ type: 'presence', payload: data });
    else if (channel === NOTIFICATION_CHANNEL) this.emit({ type: 'notification', payload: data as Extract<Notice, { type: 'notification' }>['payload'] });
    else if (channel === ACCESS_CHANNEL) this.emit({ type: 'access', payload: data as { projectId?: string; userId?: string } });
    else if (channel === CREDENTIALS_CHANNEL) this.emit({ type: 'credentials', payload: data as { projectId?: string; userId?: string } });
  }

  /**
   * With read replicas a notice goes out only once a re-read would find what it announces: every
   * replica in use has replayed a primary position read after the notice arrived (a few
   * milliseconds), or the bound has passed (ReplicaRouter.settled). A client told "the board
   * changed" that re-reads from a replica must not get the board from before the change, nor
   * must the webhook worker it wakes send a delivery whose receiver cannot read it yet. Notices
   * that arrive together wait together, and go out in the order they came. A `credentials` notice
   * announces nothing to re-read: it only makes the instance forget the credential checks it
   * kept, which is never too early, so it goes out at once.
   */
  private emit(notice: Notice): void {
    if (!this.lanes.replicas.enabled || notice.type === 'credentials') {
      this.hand(notice);
      return;
    }
    this.arrived.push(notice);
    if (!this.settling) void this.settle();
  }

  private async settle(): Promise<void> {
    this.settling = true;
    try {
      while (this.arrived.length > 0) {
        const batch = this.arrived.splice(0);
        await this.lanes.replicas.settled();
        for (const notice of batch) this.hand(notice);
      }
    } finally {
      this.settling = false;
    }
  }

  /** Hands a notice to the subscribers; `reconnected` (if the connection is still there) lets notices flow again. */
  private hand(notice: Notice): void {
    if (notice.type === 'reconnected') this.flowing = this.client !== null;
    this.notices.next(notice);
  }
}
