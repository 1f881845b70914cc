import { Comment } from '@board/tasks';
import { raw } from '../sql';

/** `comments c`: every column of the stored comment, qualified by the alias `c` the statements give the table. */
export const COMMENT_COLUMNS = raw('c.id, c.project_id, c.task_id, c.author_id, c.body, c.created_at, c.edited_at');

export interface CommentRow {
  id: string;
  project_id: string;
  task_id: string;
  author_id: string | null;
  body: string;
  created_at: Date;
  edited_at: Date | null;
}

export const toComment = (r: CommentRow): Comment => ({
  id: r.id,
  projectId: r.project_id,
  taskId: r.task_id,
  authorId: r.author_id,
  body: r.body,
  createdAt: r.created_at,
  editedAt: r.edited_at,
});
