import { Injectable } from '@nestjs/common';
import { DELIVERIES_KEPT, DeliveryView, DueDelivery, TryOutcome, WebhookRecord, WebhookRepository, WebhookView } from '@board/webhooks';
import { Database } from '../database';
import { enqueueDeliveries } from '../activity/pg-activity.recorder';
import { raw, sql } from '../sql';
import { holderGone } from '../system/instances.sql';
import { DELIVERY_VIEW_COLUMNS, DUE_DELIVERY_COLUMNS } from './webhook-deliveries.table';
import { WEBHOOK_COLUMNS, WEBHOOK_VIEW_COLUMNS } from './webhooks.table';

/** Webhooks and their delivery outbox in PostgreSQL. The secret is kept whole (it signs every body) and leaves only as a prefix. */
@Injectable()
export class PgWebhookRepository extends WebhookRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async insert(w: Omit<WebhookRecord, 'createdAt'>): Promise<void> {
    await this.db.exec(sql`INSERT INTO webhooks (id, project_id, url, kinds, enabled, secret)
      VALUES (${w.id}, ${w.projectId}, ${w.url}, ${JSON.stringify(w.kinds)}, ${w.enabled}, ${w.secret})`);
  }

  async find(projectId: string, id: string): Promise<WebhookRecord | null> {
    return this.db.one<WebhookRecord>(
      sql`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE project_id = ${projectId} AND id = ${id}`,
    );
  }

  async update(w: WebhookRecord): Promise<void> {
    await this.db.exec(sql`UPDATE webhooks SET url = ${w.url}, kinds = ${JSON.stringify(w.kinds)}, enabled = ${w.enabled}, secret = ${w.secret}
      WHERE project_id = ${w.projectId} AND id = ${w.id}`);
  }

  /** A `test` delivery with no task for this one webhook (no feed line): the ids of the rows queued. */
  enqueueTest(projectId: string, webhookId: string, at: Date): Promise<string[]> {
    return enqueueDeliveries(this.db, { projectId, kind: 'test', taskId: null, at, webhookId });
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.exec(sql`DELETE FROM webhooks WHERE project_id = ${projectId} AND id = ${id}`)).count > 0;
  }

  /**
   * Every webhook of the project with its newest delivery. The deliveries come through the same
   * column list as the deliveries list (the driver makes their timestamps), so a webhook's
   * lastDelivery reads exactly like a row of that list.
   */
  async list(projectId: string, only?: string): Promise<WebhookView[]> {
    const which = only === undefined ? sql`` : sql` AND w.id = ${only}`;
    const [webhooks, newest] = await Promise.all([
      this.db.query<Omit<WebhookView, 'lastDelivery'>>(
        sql`SELECT ${WEBHOOK_VIEW_COLUMNS}
              FROM webhooks w WHERE w.project_id = ${projectId}${which} ORDER BY w.created_at, w.id`,
      ),
      this.db.query<DeliveryView & { webhookId: string }>(
        sql`SELECT DISTINCT ON (d.webhook_id) ${DELIVERY_VIEW_COLUMNS}, d.webhook_id AS "webhookId"
              FROM webhook_deliveries d JOIN webhooks w ON w.project_id = d.project_id AND w.id = d.webhook_id
             WHERE d.project_id = ${projectId}${which}
             ORDER BY d.webhook_id, d.created_at DESC, d.id DESC`,
      ),
    ]);
    const last = new Map(newest.map(({ webhookId, ...delivery }) => [webhookId, delivery]));
    return webhooks.map((w) => ({ ...w, lastDelivery: last.get(w.id) ?? null }));
  }

  async view(projectId: string, id: string): Promise<WebhookView | null> {
    return (await this.list(projectId, id))[0] ?? null;
  }

  async deliveries(projectId: string, webhookId: string): Promise<DeliveryView[]> {
    return this.db.query<DeliveryView>(
      sql`SELECT ${DELIVERY_VIEW_COLUMNS} FROM webhook_deliveries d WHERE d.project_id = ${projectId} AND d.webhook_id = ${webhookId}
           ORDER BY d.created_at DESC, d.id DESC LIMIT ${DELIVERIES_KEPT}`,
    );
  }

  async delivery(projectId: string, id: string): Promise<DeliveryView | null> {
    return this.db.one<DeliveryView>(sql`SELECT ${DELIVERY_VIEW_COLUMNS} FROM webhook_deliveries d WHERE d.project_id = ${projectId} AND d.id = ${id}`);
  }

  async count(projectId: string, webhookId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE project_id = ${projectId} AND webhook_id = ${webhookId}`,
    );
    return row?.n ?? 0;
  }

  /**
   * Claims due deliveries for one worker: SKIP LOCKED keeps two instances off the same rows, and
   * the claim (`lease`, held by `holder` until `locked_until`) keeps them off while the try is under
   * way outside a transaction — unless its holder died, when the claim is free at once.
   */
  async claimDue(now: Date, limit: number, leaseMs: number, holder: string): Promise<DueDelivery[]> {
    return this.db.query<DueDelivery>(
      sql`WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_try_at <= ${now}
            AND (locked_until IS NULL OR locked_until < ${now} OR ${holderGone(raw('leased_by'))})
          ORDER BY next_try_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET locked_until = ${now}::timestamptz + ${`${leaseMs / 1000} seconds`}::interval,
              lease = gen_random_uuid(), leased_by = ${holder}
         FROM due, webhooks w
        WHERE d.id = due.id AND w.id = d.webhook_id AND w.project_id = d.project_id
       RETURNING ${DUE_DELIVERY_COLUMNS}`,
    );
  }

  /** Records a try, if the claim still holds the delivery (one taken over meanwhile is the new holder's to record). */
  async finishTry(d: DueDelivery, outcome: TryOutcome): Promise<void> {
    await this.db.exec(
      sql`UPDATE webhook_deliveries SET tries = tries + 1, status = ${outcome.status}, next_try_at = COALESCE(${outcome.nextTryAt}, next_try_at),
              last_code = ${outcome.code}, last_error = ${outcome.error},
              delivered_at = CASE WHEN ${outcome.status} = 'delivered' THEN ${outcome.now}::timestamptz END,
              locked_until = NULL, lease = NULL, leased_by = NULL
        WHERE project_id = ${d.projectId} AND id = ${d.id} AND lease = ${d.lease}`,
    );
  }

  /** Keeps the newest 20 deliveries of a webhook; one still waiting for a try is never dropped unsent. */
  async prune(projectId: string, webhookId: string): Promise<void> {
    await this.db.exec(
      sql`DELETE FROM webhook_deliveries WHERE project_id = ${projectId} AND webhook_id = ${webhookId} AND status <> 'pending' AND id NOT IN (
         SELECT id FROM webhook_deliveries WHERE project_id = ${projectId} AND webhook_id = ${webhookId}
          ORDER BY created_at DESC, id DESC LIMIT ${DELIVERIES_KEPT})`,
    );
  }
}
