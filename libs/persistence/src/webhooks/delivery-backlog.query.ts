import { Injectable } from '@nestjs/common';
import type { DeliveryBacklog } from '@board/kernel';
import { Database } from '../database';
import { sql } from '../sql';

/**
 * The webhook outbox of every project at once, for the metrics scrape: one set-based statement
 * over the pending rows only (the partial index `webhook_deliveries_due`), whatever the number of
 * projects, under a statement limit of its own so a scrape never weighs on the database.
 */
@Injectable()
export class DeliveryBacklogQuery {
  constructor(private readonly db: Database) {}

  read(limitMs: number): Promise<DeliveryBacklog> {
    return this.db.transaction(async () => {
      await this.db.exec(sql`SELECT set_config('statement_timeout', ${String(limitMs)}, true)`);
      // Not filtered by project on purpose: operators see the instance's whole outbox.
      const row = await this.db.single<{ pending: string; failed: string; oldestPending: number; oldestFailed: number }>(sql`
        SELECT count(*) AS pending,
               count(*) FILTER (WHERE tries > 0) AS failed,
               coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS "oldestPending",
               coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE tries > 0)), 0)::float8 AS "oldestFailed"
        FROM webhook_deliveries
        WHERE status = 'pending'`);
      return {
        pending: Number(row.pending),
        failed: Number(row.failed),
        oldestPendingSeconds: Math.max(0, row.oldestPending),
        oldestFailedSeconds: Math.max(0, row.oldestFailed),
      };
    });
  }
}
