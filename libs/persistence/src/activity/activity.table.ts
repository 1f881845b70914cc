import { raw } from '../sql';

/** `activity`: the columns a feed line is written with (feed.sql.ts is the only writer). */
export const ACTIVITY_COLUMNS = raw('id, project_id, task_id, actor_id, kind, data');

/** `activity a` as a line of a feed shows it; each read joins its actor (and task) itself. */
export const ACTIVITY_LINE_COLUMNS = raw('a.id, a.kind, a.created_at AS "createdAt", a.data');

/** A row of `ACTIVITY_LINE_COLUMNS`: already the shape the answers show, so no mapping. */
export interface ActivityLineRow {
  id: string;
  kind: string;
  createdAt: Date;
  data: unknown;
}
