import { Comment, CommentEdit, commentEditOutcome, CommentRepository, CommentView } from '@board/tasks';

/**
 * CommentRepository in memory. `liveTasks` holds `projectId:taskId` of the live tasks (a comment
 * on any other is refused, as the insert under the task's row lock refuses it); `touched` records
 * each task marked changed.
 */
export class InMemoryCommentRepository extends CommentRepository {
  readonly comments = new Map<string, Comment>();
  readonly liveTasks = new Set<string>();
  readonly touched: { projectId: string; taskId: string; at: Date }[] = [];
  private created = 0;

  async find(projectId: string, commentId: string): Promise<Comment | null> {
    const comment = this.comments.get(commentId);
    return comment?.projectId === projectId ? { ...comment } : null;
  }

  async insert({ now, ...comment }: { id: string; projectId: string; taskId: string; authorId: string; body: string; now: Date }): Promise<{ comment: Comment; view: CommentView } | null> {
    if (!this.liveTasks.has(`${comment.projectId}:${comment.taskId}`)) return null;
    const saved: Comment = { ...comment, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, this.created++)), editedAt: null };
    this.comments.set(saved.id, saved);
    await this.touchTask(comment.projectId, comment.taskId, now);
    // The authors are not this world's (as InMemoryCommentQuery): none is joined.
    const view: CommentView = { id: saved.id, taskId: saved.taskId, authorId: saved.authorId, body: saved.body, createdAt: saved.createdAt, editedAt: null, author: null };
    return { comment: { ...saved }, view };
  }

  async rewrite(projectId: string, commentId: string, edit: CommentEdit, now: Date): Promise<Comment | null> {
    const saved = this.comments.get(commentId);
    if (saved?.projectId !== projectId || commentEditOutcome(saved.body, edit) !== 'write') return null;
    saved.body = edit.body;
    saved.editedAt = now;
    return { ...saved };
  }

  async remove(projectId: string, commentId: string): Promise<boolean> {
    if (this.comments.get(commentId)?.projectId !== projectId) return false;
    return this.comments.delete(commentId);
  }

  async touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    this.touched.push({ projectId, taskId, at: now });
  }
}
