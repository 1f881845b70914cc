import { Injectable } from '@nestjs/common';
import type { ChecklistItemView, CommentView } from '@board/tasks';
import { Database } from '../database';

/** A checklist line as the task read shows it. */
export type ChecklistEntry = Omit<ChecklistItemView, 'taskId'>;

export interface TaskDiscussion {
  /** In the order the items were added (rank order). */
  checklist: ChecklistEntry[];
  /** Oldest first, each with its author (null when the user row is gone). */
  comments: CommentView[];
}

const COMMENT_VIEW = `c.id, c.task_id AS "taskId", c.author_id AS "authorId", c.body, c.created_at AS "createdAt",
  c.edited_at AS "editedAt",
  CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name, 'color', u.color, 'emoji', u.emoji) END AS author`;

/** Reads of checklists and comments that only show data. They do not check that the task is live: the caller did. */
@Injectable()
export class DiscussionQuery {
  constructor(private readonly db: Database) {}

  /** The checklist and comments of one task, for the task's full read. Two queries. */
  async forTask(projectId: string, taskId: string): Promise<TaskDiscussion> {
    const checklist = await this.db.query<ChecklistEntry>(
      `SELECT id, text, done, position FROM checklist_items
        WHERE project_id = $1 AND task_id = $2 ORDER BY position COLLATE "C", id`,
      [projectId, taskId],
    );
    const comments = await this.db.query<CommentView>(
      `SELECT ${COMMENT_VIEW} FROM comments c LEFT JOIN users u ON u.id = c.author_id
        WHERE c.project_id = $1 AND c.task_id = $2 ORDER BY c.created_at, c.id`,
      [projectId, taskId],
    );
    return { checklist, comments };
  }

  /** One comment with its author, as the comment routes answer it. */
  async comment(projectId: string, commentId: string): Promise<CommentView | null> {
    return this.db.one<CommentView>(
      `SELECT ${COMMENT_VIEW} FROM comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.id = $1 AND c.project_id = $2`,
      [commentId, projectId],
    );
  }
}
