import { Injectable } from '@nestjs/common';
import { Database } from '@board/persistence';

export interface FeedCursor {
  after: string;
  afterId: string;
}

/**
 * The feed's order: the time cut to the millisecond, as every answer shows it (JSON timestamps
 * have no finer grain), then the id. A client's cursor — `next`, or the `createdAt` and `id` of the
 * last entry it handled — then means exactly what it says: lines at a later shown moment, or at the
 * same shown moment with a greater id. The index `activity_feed_ms` serves this order.
 */
const SHOWN_AT = `date_trunc('milliseconds', a.created_at AT TIME ZONE 'UTC')`;
/** No cursor: before every line. */
const FIRST = '-infinity';
/** `after` without `afterId`: past every line of that millisecond. */
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** The project's feed, oldest first by (createdAt, id): a cursor never skips nor repeats a line. */
@Injectable()
export class ActivityQueries {
  constructor(private readonly db: Database) {}

  async page(projectId: string, limit: number, after: string | null, afterId: string | null) {
    const rows = await this.db.query<Record<string, unknown> & { id: string; createdAt: Date }>(
      `SELECT a.id, a.kind, a.created_at AS "createdAt", a.data,
              CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name, 'color', u.color, 'emoji', u.emoji) END AS actor,
              a.task_id AS "taskId", CASE WHEN t.id IS NULL THEN NULL ELSE p.key || '-' || t.number END AS "taskKey"
         FROM activity a
         JOIN projects p ON p.id = a.project_id
         LEFT JOIN tasks t ON t.project_id = a.project_id AND t.id = a.task_id
         LEFT JOIN users u ON u.id = a.actor_id
        WHERE a.project_id = $1
          AND (${SHOWN_AT}, a.id) > (date_trunc('milliseconds', $2::timestamptz AT TIME ZONE 'UTC'), $3::uuid)
        ORDER BY ${SHOWN_AT}, a.id
        LIMIT $4`,
      [projectId, after ?? FIRST, afterId ?? LAST_ID, limit],
    );
    const last = rows[rows.length - 1];
    // The last entry's own createdAt and id, as shown: either may serve as the cursor.
    const next: FeedCursor | null = rows.length === limit && last ? { after: last.createdAt.toISOString(), afterId: last.id } : null;
    return { activity: rows, next };
  }
}
