import { Injectable } from '@nestjs/common';
import { BucketCleanup } from '@board/files';
import { Database } from '../database';

/**
 * The queue of bucket keys to delete (`object_deletions`, filled by a trigger whenever an
 * attachment row goes). Several instances sweep at once: a claim leases keys with SKIP LOCKED, so
 * each key is in one sweep's hands at a time, and a key whose delete failed comes due again when
 * its lease runs out.
 */
@Injectable()
export class PgBucketCleanupRepository extends BucketCleanup {
  constructor(private readonly db: Database) {
    super();
  }

  async expirePending(before: Date, limit: number): Promise<number> {
    const { count } = await this.db.exec(
      `DELETE FROM attachments WHERE id IN (
         SELECT id FROM attachments WHERE state = 'pending' AND created_at < $1
          ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
    return count;
  }

  async claim(now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ key: string }>(
      `UPDATE object_deletions o SET due_at = $2, tries = o.tries + 1
        WHERE o.key IN (SELECT key FROM object_deletions WHERE due_at <= $1 ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING o.key`,
      [now, leaseUntil, limit],
    );
    return rows.map((r) => r.key);
  }

  async forget(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.exec(`DELETE FROM object_deletions WHERE key = ANY($1::text[])`, [keys]);
  }
}
