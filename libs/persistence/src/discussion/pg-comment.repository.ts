import { Injectable } from '@nestjs/common';
import { Comment, CommentEdit, CommentRepository } from '@board/tasks';
import { Database } from '../database';
import { touchTask } from './touch-task';

interface CommentRow {
  id: string;
  project_id: string;
  task_id: string;
  author_id: string | null;
  body: string;
  created_at: Date;
  edited_at: Date | null;
}

const COLUMNS = `c.id, c.project_id, c.task_id, c.author_id, c.body, c.created_at, c.edited_at`;

const toComment = (r: CommentRow): Comment => ({
  id: r.id,
  projectId: r.project_id,
  taskId: r.task_id,
  authorId: r.author_id,
  body: r.body,
  createdAt: r.created_at,
  editedAt: r.edited_at,
});

// A comment hangs off a live task of the same project; a deleted task takes its comments out of sight.
const LIVE_TASK = `EXISTS (SELECT 1 FROM tasks t WHERE t.id = c.task_id AND t.project_id = c.project_id AND t.deleted_at IS NULL)`;

@Injectable()
export class PgCommentRepository extends CommentRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async find(projectId: string, commentId: string): Promise<Comment | null> {
    const row = await this.db.one<CommentRow>(`SELECT ${COLUMNS} FROM comments c WHERE c.id = $1 AND c.project_id = $2 AND ${LIVE_TASK}`, [
      commentId, projectId,
    ]);
    return row ? toComment(row) : null;
  }

  async insert(comment: { id: string; projectId: string; taskId: string; authorId: string; body: string }): Promise<Comment | null> {
    // created_at is left to the database's clock_timestamp(), so comments keep the order they came in.
    const row = await this.db.one<CommentRow>(
      `INSERT INTO comments AS c (id, project_id, task_id, author_id, body)
       SELECT $1, t.project_id, t.id, $4, $5 FROM tasks t
        WHERE t.id = $3 AND t.project_id = $2 AND t.deleted_at IS NULL
          -- The task's row lock (as its updated_at write takes) until the transaction ends: a
          -- delete racing the comment waits, or wins and the comment finds no live task.
          FOR NO KEY UPDATE OF t
       RETURNING ${COLUMNS}`,
      [comment.id, comment.projectId, comment.taskId, comment.authorId, comment.body],
    );
    return row ? toComment(row) : null;
  }

  async rewrite(projectId: string, commentId: string, edit: CommentEdit, now: Date): Promise<Comment | null> {
    // Compare and write are one statement: the words change only if they still are the base.
    const row = await this.db.one<CommentRow>(
      `UPDATE comments c SET body = $3::text, edited_at = $5
        WHERE c.id = $1 AND c.project_id = $2 AND ${LIVE_TASK}
          AND c.body <> $3::text
          AND ($4::text IS NULL OR c.body = $4::text)
      RETURNING ${COLUMNS}`,
      [commentId, projectId, edit.body, edit.baseBody ?? null, now],
    );
    return row ? toComment(row) : null;
  }

  async remove(projectId: string, commentId: string): Promise<boolean> {
    const { count } = await this.db.exec(`DELETE FROM comments c WHERE c.id = $1 AND c.project_id = $2 AND ${LIVE_TASK}`, [commentId, projectId]);
    return count === 1;
  }

  touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    return touchTask(this.db, projectId, taskId, now);
  }
}
