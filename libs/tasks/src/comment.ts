import { DomainError, fail, readText } from '@board/kernel';

export const COMMENT_BODY_MAX = 8000;

/** A comment as stored. `authorId` is null once the author's user row is gone. */
export interface Comment {
  id: string;
  projectId: string;
  taskId: string;
  authorId: string | null;
  body: string;
  createdAt: Date;
  editedAt: Date | null;
}

export interface CommentAuthor {
  id: string;
  name: string;
  color: string;
  emoji: string | null;
}

/** What answers and the task read show: the comment with its author (null when the user row is deleted). */
export interface CommentView {
  id: string;
  taskId: string;
  authorId: string | null;
  body: string;
  createdAt: Date;
  editedAt: Date | null;
  author: CommentAuthor | null;
}

/** Who acts on a comment: a person or an agent, with the role in the comment's project. */
export interface CommentActor {
  userId: string;
  kind: 'human' | 'agent';
  role: 'owner' | 'admin' | 'member';
}

/** A new comment's body: required, trimmed, at most 8000 ("Body cannot be empty.", "Body is too long (max 8000 characters)."). */
export const readNewCommentBody = (value: unknown): string => readText(value, 'body', { max: COMMENT_BODY_MAX, required: true });

export interface CommentEdit {
  body: string;
  /** The words the writer started from; undefined means the last write wins. */
  baseBody?: string;
}

/**
 * `{ body, baseBody? }` of an edit. An empty body (missing, null, blank) is refused with its own
 * sentence: deleting is the way to take the words away.
 */
export function readCommentEdit(input: Record<string, unknown>): CommentEdit {
  let body: string;
  try {
    body = readText(input.body, 'body', { max: COMMENT_BODY_MAX, required: true });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'text.empty') return fail('comment.empty');
    throw error;
  }
  const edit: CommentEdit = { body };
  if (input.baseBody !== undefined && input.baseBody !== null) edit.baseBody = readText(input.baseBody, 'baseBody', { allowEmpty: true });
  return edit;
}

/** Only the author edits, person or agent; an owner or admin is no exception. */
export function assertCanEditComment(actor: CommentActor, comment: { authorId: string | null }): void {
  if (comment.authorId === null || comment.authorId !== actor.userId) fail('comment.edit_own');
}

/**
 * The author deletes their own; a person who is owner or admin deletes anybody's; an agent
 * only its own. Answers whether the delete is the project's (not the author's).
 */
export function assertCanDeleteComment(actor: CommentActor, comment: { authorId: string | null }): { byProject: boolean } {
  if (comment.authorId !== null && comment.authorId === actor.userId) return { byProject: false };
  if (actor.kind === 'human' && (actor.role === 'owner' || actor.role === 'admin')) return { byProject: true };
  return fail('comment.delete_own');
}

export type CommentEditOutcome = 'write' | 'same' | 'clash';

/**
 * Same words write nothing (and are no clash, base or not); with a base, saved words other than
 * the base clash; otherwise the edit is written.
 */
export function commentEditOutcome(savedBody: string, edit: CommentEdit): CommentEditOutcome {
  if (savedBody === edit.body) return 'same';
  if (edit.baseBody !== undefined && savedBody !== edit.baseBody) return 'clash';
  return 'write';
}

/** The feed line data of a delete: who wrote it and whether the project removed it, never the words. */
export const commentDeletedData = (commentId: string, authorId: string | null, byProject: boolean) => ({
  commentId,
  action: 'deleted' as const,
  authorId,
  byProject,
});

/** Storage of comments, kept to the project and to live tasks. */
export abstract class CommentRepository {
  abstract find(projectId: string, commentId: string): Promise<Comment | null>;
  /**
   * Inserts the comment (its `createdAt` is the database's) and marks the task changed at `now`,
   * under the task's row lock; answers it stored and as shown (with its author). Null when the task
   * is not a live task of the project (nothing written).
   */
  abstract insert(comment: { id: string; projectId: string; taskId: string; authorId: string; body: string; now: Date }): Promise<{ comment: Comment; view: CommentView } | null>;
  /**
   * Compare and write in one statement: sets the body and `editedAt` only when the words change
   * and, with a base, the saved words are still the base. Null when nothing was written.
   */
  abstract rewrite(projectId: string, commentId: string, edit: CommentEdit, now: Date): Promise<Comment | null>;
  abstract remove(projectId: string, commentId: string): Promise<boolean>;
  /** Marks the task changed (`updated_at`). */
  abstract touchTask(projectId: string, taskId: string, now: Date): Promise<void>;
}
