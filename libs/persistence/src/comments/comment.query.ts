import type { CommentView } from '@board/tasks';

/** Reads of comments that only show data. They do not check that the task is live: the caller did. */
export abstract class CommentQuery {
  /** The comments of one task, oldest first, each with its author (null when the user row is gone). */
  abstract onTask(projectId: string, taskId: string): Promise<CommentView[]>;

  /** One comment with its author, as the comment routes answer it. */
  abstract comment(projectId: string, commentId: string): Promise<CommentView | null>;
}
