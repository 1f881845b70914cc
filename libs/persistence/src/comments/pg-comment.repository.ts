import { Injectable } from '@nestjs/common';
import { Comment, CommentEdit, CommentRepository, CommentView } from '@board/tasks';
import { userJson } from '../accounts/users.table';
import { Database } from '../database';
import { sql } from '../sql';
import { COMMENT_COLUMNS, CommentRow, toComment } from './comments.table';
import { liveTaskOf, touchTask } from '../tasks/touch-task';

const LIVE_TASK = liveTaskOf('c');

@Injectable()
export class PgCommentRepository extends CommentRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async find(projectId: string, commentId: string): Promise<Comment | null> {
    const row = await this.db.one<CommentRow>(
      sql`SELECT ${COMMENT_COLUMNS} FROM comments c WHERE c.id = ${commentId} AND c.project_id = ${projectId} AND ${LIVE_TASK}`,
    );
    return row ? toComment(row) : null;
  }

  async insert(comment: { id: string; projectId: string; taskId: string; authorId: string; body: string; now: Date }): Promise<{ comment: Comment; view: CommentView } | null> {
    // One statement for what were three (insert, the task's updated_at, the answer's read). The
    // UPDATE takes the task's row lock until the transaction ends: a delete racing the comment
    // waits, or wins and the comment finds no live task. created_at is left to the database's
    // clock_timestamp(), so comments keep the order they came in.
    const row = await this.db.one<CommentRow & { author: CommentView['author'] }>(
      sql`WITH touched AS (
         UPDATE tasks t SET updated_at = ${comment.now}
          WHERE t.id = ${comment.taskId} AND t.project_id = ${comment.projectId} AND t.deleted_at IS NULL
         RETURNING t.project_id, t.id),
       inserted AS (
         INSERT INTO comments AS c (id, project_id, task_id, author_id, body)
         SELECT ${comment.id}, t.project_id, t.id, ${comment.authorId}, ${comment.body} FROM touched t
         RETURNING ${COMMENT_COLUMNS})
       SELECT ${COMMENT_COLUMNS}, ${userJson('u')} AS author FROM inserted c LEFT JOIN users u ON u.id = c.author_id`,
    );
    if (!row) return null;
    const stored = toComment(row);
    // As PgCommentQuery.comment answers it (COMMENT_VIEW, in its order).
    const view: CommentView = { id: row.id, taskId: row.task_id, authorId: row.author_id, body: row.body, createdAt: row.created_at, editedAt: row.edited_at, author: row.author };
    return { comment: stored, view };
  }

  async rewrite(projectId: string, commentId: string, edit: CommentEdit, now: Date): Promise<Comment | null> {
    const baseBody = edit.baseBody ?? null;
    // Compare and write are one statement: the words change only if they still are the base.
    const row = await this.db.one<CommentRow>(
      sql`UPDATE comments c SET body = ${edit.body}::text, edited_at = ${now}
        WHERE c.id = ${commentId} AND c.project_id = ${projectId} AND ${LIVE_TASK}
          AND c.body <> ${edit.body}::text
          AND (${baseBody}::text IS NULL OR c.body = ${baseBody}::text)
      RETURNING ${COMMENT_COLUMNS}`,
    );
    return row ? toComment(row) : null;
  }

  async remove(projectId: string, commentId: string): Promise<boolean> {
    const { count } = await this.db.exec(sql`DELETE FROM comments c WHERE c.id = ${commentId} AND c.project_id = ${projectId} AND ${LIVE_TASK}`);
    return count === 1;
  }

  touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    return touchTask(this.db, projectId, taskId, now);
  }
}
