import { Injectable } from '@nestjs/common';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { userJson } from '../accounts/users.table';
import { ACTIVITY_LINE_COLUMNS } from '../activity/activity.table';
import { ActivityFeedQuery, FeedCursor, FeedEntry, FeedOrder } from './activity-feed.query';

/**
 * The feed's order: the time cut to the millisecond, as every answer shows it (JSON timestamps
 * have no finer grain), then the id. A client's cursor — `next`, or the `createdAt` and `id` of the
 * last entry it handled — then means exactly what it says: lines at a later shown moment, or at the
 * same shown moment with a greater id. The index `activity_feed_ms` serves this order.
 */
const SHOWN_AT = raw(`date_trunc('milliseconds', a.created_at AT TIME ZONE 'UTC')`);
const ACTOR = userJson('u');
/** No cursor: before every line (oldest first), after every line (newest first). */
const FIRST = '-infinity';
const LAST = 'infinity';
/** `after` without `afterId`: past every line of that millisecond, in the reading order. */
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** The feed page in one statement over the index `activity_feed_ms`. */
@Injectable()
export class PgActivityFeedQuery extends ActivityFeedQuery {
  constructor(private readonly db: Database) {
    super();
  }

  async page(
    projectId: string,
    limit: number,
    after: string | null,
    afterId: string | null,
    order: FeedOrder = 'oldest',
  ): Promise<{ activity: FeedEntry[]; next: FeedCursor | null }> {
    const newest = order === 'newest';
    const at = sql`(date_trunc('milliseconds', ${after ?? (newest ? LAST : FIRST)}::timestamptz AT TIME ZONE 'UTC'), ${afterId ?? (newest ? FIRST_ID : LAST_ID)}::uuid)`;
    const rows = await this.db.query<FeedEntry>(
      sql`SELECT ${ACTIVITY_LINE_COLUMNS},
              ${ACTOR} AS actor,
              a.task_id AS "taskId", CASE WHEN t.id IS NULL THEN NULL ELSE p.key || '-' || t.number END AS "taskKey"
         FROM activity a
         JOIN projects p ON p.id = a.project_id
         LEFT JOIN tasks t ON t.project_id = a.project_id AND t.id = a.task_id
         LEFT JOIN users u ON u.id = a.actor_id
        WHERE a.project_id = ${projectId}
          AND ${newest ? sql`(${SHOWN_AT}, a.id) < ${at}` : sql`(${SHOWN_AT}, a.id) > ${at}`}
        ORDER BY ${newest ? raw(`date_trunc('milliseconds', a.created_at AT TIME ZONE 'UTC') DESC, a.id DESC`) : sql`${SHOWN_AT}, a.id`}
        LIMIT ${limit}`,
    );
    const last = rows[rows.length - 1];
    // The last entry's own createdAt and id, as shown: either may serve as the cursor.
    const next: FeedCursor | null = rows.length === limit && last ? { after: last.createdAt.toISOString(), afterId: last.id } : null;
    return { activity: rows, next };
  }
}
