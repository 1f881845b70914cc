import { Injectable } from '@nestjs/common';
import type { CommentView } from '@board/tasks';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { userJson } from '../accounts/users.table';
import { CommentQuery } from './comment.query';

/** A comment as answers show it, with its author (`users u`, left joined). */
const COMMENT_VIEW = sql`c.id, c.task_id AS "taskId", c.author_id AS "authorId", c.body, c.created_at AS "createdAt",
  c.edited_at AS "editedAt", ${userJson('u')} AS author`;
const WITH_AUTHOR = raw('comments c LEFT JOIN users u ON u.id = c.author_id');

/** The comment reads in SQL, one query each. */
@Injectable()
export class PgCommentQuery extends CommentQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** The comments of one task, oldest first, each with its author (null when the user row is gone). */
  async onTask(projectId: string, taskId: string): Promise<CommentView[]> {
    return this.db.query<CommentView>(
      sql`SELECT ${COMMENT_VIEW} FROM ${WITH_AUTHOR} WHERE c.project_id = ${projectId} AND c.task_id = ${taskId} ORDER BY c.created_at, c.id`,
    );
  }

  /** One comment with its author, as the comment routes answer it. */
  async comment(projectId: string, commentId: string): Promise<CommentView | null> {
    return this.db.one<CommentView>(sql`SELECT ${COMMENT_VIEW} FROM ${WITH_AUTHOR} WHERE c.id = ${commentId} AND c.project_id = ${projectId}`);
  }
}
