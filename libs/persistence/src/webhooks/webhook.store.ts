import { Injectable } from '@nestjs/common';
import { DELIVERIES_KEPT, DeliveryStatus, SECRET_PREFIX_LENGTH } from '@board/webhooks';
import { Database } from '../database';
import { enqueueDeliveries } from '../activity/typeorm-activity.recorder';

export interface WebhookRow {
  id: string;
  projectId: string;
  url: string;
  kinds: string[];
  enabled: boolean;
  secret: string;
  createdAt: Date;
}

export interface DueDelivery {
  id: string;
  projectId: string;
  webhookId: string;
  url: string;
  secret: string;
  body: string;
  tries: number;
}

const DELIVERY = `d.id, d.kind, d.task_key AS "taskKey", d.status, d.tries, d.last_code AS "lastCode", d.last_error AS "lastError",
  d.created_at AS "createdAt", CASE WHEN d.status = 'pending' THEN d.next_try_at END AS "nextTryAt", d.delivered_at AS "deliveredAt"`;

/** Webhooks and their delivery outbox. The secret is kept whole (it signs every body) and leaves only as a prefix. */
@Injectable()
export class WebhookStore {
  constructor(private readonly db: Database) {}

  async insert(w: Omit<WebhookRow, 'createdAt'>): Promise<void> {
    await this.db.exec(`INSERT INTO webhooks (id, project_id, url, kinds, enabled, secret) VALUES ($1, $2, $3, $4, $5, $6)`, [
      w.id, w.projectId, w.url, JSON.stringify(w.kinds), w.enabled, w.secret,
    ]);
  }

  async find(projectId: string, id: string): Promise<WebhookRow | null> {
    return this.db.one<WebhookRow>(
      `SELECT id, project_id AS "projectId", url, kinds, enabled, secret, created_at AS "createdAt" FROM webhooks WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
  }

  async update(w: WebhookRow): Promise<void> {
    await this.db.exec(`UPDATE webhooks SET url = $3, kinds = $4, enabled = $5, secret = $6 WHERE project_id = $1 AND id = $2`, [
      w.projectId, w.id, w.url, JSON.stringify(w.kinds), w.enabled, w.secret,
    ]);
  }

  /** A `test` delivery with no task for this one webhook (no feed line): the ids of the rows queued. */
  enqueueTest(projectId: string, webhookId: string, at: Date): Promise<string[]> {
    return enqueueDeliveries(this.db, { projectId, kind: 'test', taskId: null, at, webhookId });
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM webhooks WHERE project_id = $1 AND id = $2', [projectId, id])).count > 0;
  }

  /** Every webhook of the project with its newest delivery, in one query. */
  async list(projectId: string) {
    const rows = await this.db.query<{ id: string; lastDelivery: Record<string, unknown> | null }>(
      `SELECT w.id, w.url, w.kinds, w.enabled, left(w.secret, ${SECRET_PREFIX_LENGTH}) AS "secretPrefix", w.created_at AS "createdAt",
              (SELECT row_to_json(x) FROM (SELECT ${DELIVERY} FROM webhook_deliveries d
                 WHERE d.project_id = w.project_id AND d.webhook_id = w.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1) x) AS "lastDelivery"
         FROM webhooks w WHERE w.project_id = $1 ORDER BY w.created_at, w.id`,
      [projectId],
    );
    // row_to_json writes timestamps in PostgreSQL's own form (`…T03:10:09.726104+00:00`): give them
    // the ISO form every other answer uses, so lastDelivery reads like a row of the deliveries list.
    for (const row of rows) {
      const d = row.lastDelivery;
      if (!d) continue;
      for (const key of ['createdAt', 'nextTryAt', 'deliveredAt']) {
        if (typeof d[key] === 'string') d[key] = new Date(d[key] as string).toISOString();
      }
    }
    return rows;
  }

  async view(projectId: string, id: string) {
    return (await this.list(projectId)).find((w) => (w as { id: string }).id === id) ?? null;
  }

  async deliveries(projectId: string, webhookId: string) {
    return this.db.query(
      `SELECT ${DELIVERY} FROM webhook_deliveries d WHERE d.project_id = $1 AND d.webhook_id = $2 ORDER BY d.created_at DESC, d.id DESC LIMIT ${DELIVERIES_KEPT}`,
      [projectId, webhookId],
    );
  }

  async delivery(projectId: string, id: string) {
    return this.db.one(`SELECT ${DELIVERY} FROM webhook_deliveries d WHERE d.project_id = $1 AND d.id = $2`, [projectId, id]);
  }

  async count(projectId: string, webhookId: string): Promise<number> {
    const row = await this.db.one<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE project_id = $1 AND webhook_id = $2',
      [projectId, webhookId],
    );
    return row?.n ?? 0;
  }

  /**
   * Claims due deliveries for one worker: SKIP LOCKED keeps two instances off the same rows, and
   * a short lease (locked_until) keeps them off while the try is under way outside a transaction.
   */
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.db.query<DueDelivery>(
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_try_at <= $1 AND (locked_until IS NULL OR locked_until < $1)
          ORDER BY next_try_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET locked_until = $1::timestamptz + $3::interval
         FROM due, webhooks w
        WHERE d.id = due.id AND w.id = d.webhook_id AND w.project_id = d.project_id
       RETURNING d.id, d.project_id AS "projectId", d.webhook_id AS "webhookId", w.url, w.secret, d.body, d.tries`,
      [now, limit, `${leaseMs / 1000} seconds`],
    );
  }

  async finishTry(
    d: DueDelivery,
    outcome: { status: DeliveryStatus; nextTryAt: Date | null; code: number | null; error: string | null; now: Date },
  ): Promise<void> {
    await this.db.exec(
      `UPDATE webhook_deliveries SET tries = tries + 1, status = $3, next_try_at = COALESCE($4, next_try_at), last_code = $5,
              last_error = $6, delivered_at = CASE WHEN $3 = 'delivered' THEN $7::timestamptz END, locked_until = NULL
        WHERE project_id = $1 AND id = $2`,
      [d.projectId, d.id, outcome.status, outcome.nextTryAt, outcome.code, outcome.error, outcome.now],
    );
  }

  /** Keeps the newest 20 deliveries of a webhook; one still waiting for a try is never dropped unsent. */
  async prune(projectId: string, webhookId: string): Promise<void> {
    await this.db.exec(
      `DELETE FROM webhook_deliveries WHERE project_id = $1 AND webhook_id = $2 AND status <> 'pending' AND id NOT IN (
         SELECT id FROM webhook_deliveries WHERE project_id = $1 AND webhook_id = $2 ORDER BY created_at DESC, id DESC LIMIT ${DELIVERIES_KEPT})`,
      [projectId, webhookId],
    );
  }
}
