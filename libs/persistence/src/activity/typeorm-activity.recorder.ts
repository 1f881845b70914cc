import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityLine, ActivityRecorder } from '@board/kernel';
import { Database } from '../database';

export const WEBHOOK_CHANNEL = 'board_webhooks';

/**
 * Writes a feed line inside the caller's transaction, and with it one delivery row (the
 * outbox) per enabled webhook of the project whose kinds match. Both commit or neither.
 */
@Injectable()
export class TypeormActivityRecorder extends ActivityRecorder {
  constructor(private readonly db: Database) {
    super();
  }

  async record(line: ActivityLine): Promise<void> {
    const row = await this.db.one<{ created_at: Date }>(
      `INSERT INTO activity (id, project_id, task_id, actor_id, kind, data) VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
      [randomUUID(), line.projectId, line.taskId, line.actorId, line.kind, JSON.stringify(line.data)],
    );
    await enqueueDeliveries(this.db, { projectId: line.projectId, kind: line.kind, taskId: line.taskId, at: row!.created_at });
  }
}

/** One pending delivery per matching webhook (or only `webhookId`, for a test), body fixed now. */
export async function enqueueDeliveries(
  db: Database,
  input: { projectId: string; kind: string; taskId: string | null; at: Date; webhookId?: string },
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH target AS (
       SELECT w.id AS webhook_id, p.key AS project_key, gen_random_uuid() AS delivery_id,
              (SELECT p.key || '-' || t.number FROM tasks t WHERE t.project_id = w.project_id AND t.id = $3) AS task_key
         FROM webhooks w JOIN projects p ON p.id = w.project_id
        WHERE w.project_id = $1
          AND ($5::uuid IS NOT NULL AND w.id = $5
               OR $5::uuid IS NULL AND w.enabled AND (jsonb_array_length(w.kinds) = 0 OR w.kinds ? $2)))
     INSERT INTO webhook_deliveries (id, project_id, webhook_id, kind, task_id, task_key, body, next_try_at)
     SELECT delivery_id, $1, webhook_id, $2, $3, task_key,
            json_build_object('delivery', delivery_id, 'projectId', $1::uuid, 'projectKey', project_key, 'kind', $2::text,
                              'taskId', $3::uuid, 'taskKey', task_key, 'at', $4::text)::text,
            clock_timestamp()
       FROM target
     RETURNING id`,
    [input.projectId, input.kind, input.taskId, input.at.toISOString(), input.webhookId ?? null],
  );
  // Wakes the delivery workers at commit, so the first try goes out at once.
  if (rows.length > 0) await db.exec('SELECT pg_notify($1, $2)', [WEBHOOK_CHANNEL, input.projectId]);
  return rows.map((r) => r.id);
}
