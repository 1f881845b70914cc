import { Injectable } from '@nestjs/common';
import { Database } from '@board/persistence';

export interface FeedCursor {
  after: string;
  afterId: string;
}

/** The project's feed, oldest first by (createdAt, id): a cursor never skips nor repeats a line. */
@Injectable()
export class ActivityQueries {
  constructor(private readonly db: Database) {}

  async page(projectId: string, limit: number, after: string | null, afterId: string | null) {
    const rows = await this.db.query<Record<string, unknown> & { cursor: string; id: string }>(
      `SELECT a.id, a.kind, a.created_at AS "createdAt", a.data,
              CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name, 'color', u.color, 'emoji', u.emoji) END AS actor,
              a.task_id AS "taskId", CASE WHEN t.id IS NULL THEN NULL ELSE p.key || '-' || t.number END AS "taskKey",
              to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor
         FROM activity a
         JOIN projects p ON p.id = a.project_id
         LEFT JOIN tasks t ON t.project_id = a.project_id AND t.id = a.task_id
         LEFT JOIN users u ON u.id = a.actor_id
        WHERE a.project_id = $1
          AND ($2::timestamptz IS NULL OR a.created_at > $2 OR (a.created_at = $2 AND $3::uuid IS NOT NULL AND a.id > $3))
        ORDER BY a.created_at, a.id
        LIMIT $4`,
      [projectId, after, afterId, limit],
    );
    const last = rows[rows.length - 1];
    const next: FeedCursor | null = rows.length === limit && last ? { after: last.cursor, afterId: last.id } : null;
    return { activity: rows.map(({ cursor: _cursor, ...entry }) => entry), next };
  }
}
