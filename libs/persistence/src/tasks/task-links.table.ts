import { Link } from '@board/tasks';
import { raw, Sql } from '../sql';

/** `task_links`: `task_id` waits on `blocker_id`. Its columns, of the alias `alias` when given. */
export const taskLinkColumns = (alias?: string): Sql => raw(alias ? `${alias}.task_id, ${alias}.blocker_id` : 'task_id, blocker_id');

export interface TaskLinkRow {
  task_id: string;
  blocker_id: string;
}

export const toLink = (r: TaskLinkRow): Link => ({ taskId: r.task_id, blockerId: r.blocker_id });
