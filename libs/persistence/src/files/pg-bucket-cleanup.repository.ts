import { Injectable } from '@nestjs/common';
import { BucketCleanup } from '@board/files';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { holderGone } from '../system/instances.sql';
import { OBJECT_DELETION_COLUMNS, ObjectDeletionRow, toObjectKey } from './object-deletions.table';

/**
 * The queue of bucket keys to delete (`object_deletions`, filled by a trigger whenever an
 * attachment row goes). Several instances sweep at once: a claim leases keys with SKIP LOCKED, so
 * each key is in one sweep's hands at a time, and a key whose delete failed comes due again when
 * its lease runs out — or when the instance holding it dies (`leased_by`), whichever is first.
 */
@Injectable()
export class PgBucketCleanupRepository extends BucketCleanup {
  constructor(private readonly db: Database) {
    super();
  }

  async expirePending(before: Date, limit: number): Promise<number> {
    const { count } = await this.db.exec(
      sql`DELETE FROM attachments WHERE id IN (
         SELECT id FROM attachments WHERE state = 'pending' AND created_at < ${before}
          ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`,
    );
    return count;
  }

  async claim(now: Date, leaseUntil: Date, limit: number, holder: string): Promise<string[]> {
    const rows = await this.db.query<ObjectDeletionRow>(
      sql`UPDATE object_deletions o SET due_at = ${leaseUntil}, tries = o.tries + 1, leased_by = ${holder}
        WHERE o.key IN (
          SELECT key FROM object_deletions
           WHERE due_at <= ${now} OR (leased_by IS NOT NULL AND ${holderGone(raw('leased_by'))})
           ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING ${OBJECT_DELETION_COLUMNS}`,
    );
    return rows.map(toObjectKey);
  }

  async forget(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.exec(sql`DELETE FROM object_deletions WHERE key = ANY(${keys}::text[])`);
  }
}
