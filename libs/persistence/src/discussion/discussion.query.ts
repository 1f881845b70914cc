import { Injectable } from '@nestjs/common';
import type { ChecklistItemView, CommentView } from '@board/tasks';
import { Database } from '../database';
import { raw, sql } from '../sql';
import { userJson } from '../accounts/users.table';

/** A checklist line as the task read shows it. */
export type ChecklistEntry = Omit<ChecklistItemView, 'taskId'>;

export interface TaskDiscussion {
  /** In the order the items were added (rank order). */
  checklist: ChecklistEntry[];
  /** Oldest first, each with its author (null when the user row is gone). */
  comments: CommentView[];
}

/** A comment as answers show it, with its author (`users u`, left joined). */
const COMMENT_VIEW = sql`c.id, c.task_id AS "taskId", c.author_id AS "authorId", c.body, c.created_at AS "createdAt",
  c.edited_at AS "editedAt", ${userJson('u')} AS author`;
const WITH_AUTHOR = raw('comments c LEFT JOIN users u ON u.id = c.author_id');

/** Reads of checklists and comments that only show data. They do not check that the task is live: the caller did. */
@Injectable()
export class DiscussionQuery {
  constructor(private readonly db: Database) {}

  /** The checklist and comments of one task, for the task's full read. Two queries. */
  async forTask(projectId: string, taskId: string): Promise<TaskDiscussion> {
    const checklist = await this.db.query<ChecklistEntry>(
      sql`SELECT id, text, done, position FROM checklist_items
        WHERE project_id = ${projectId} AND task_id = ${taskId} ORDER BY position COLLATE "C", id`,
    );
    const comments = await this.db.query<CommentView>(
      sql`SELECT ${COMMENT_VIEW} FROM ${WITH_AUTHOR} WHERE c.project_id = ${projectId} AND c.task_id = ${taskId} ORDER BY c.created_at, c.id`,
    );
    return { checklist, comments };
  }

  /** One comment with its author, as the comment routes answer it. */
  async comment(projectId: string, commentId: string): Promise<CommentView | null> {
    return this.db.one<CommentView>(sql`SELECT ${COMMENT_VIEW} FROM ${WITH_AUTHOR} WHERE c.id = ${commentId} AND c.project_id = ${projectId}`);
  }
}
