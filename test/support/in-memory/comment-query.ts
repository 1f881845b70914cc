import type { CommentQuery } from '@board/persistence';
import { Comment, CommentView } from '@board/tasks';
import { InMemoryCommentRepository } from './comment-repository';

/** The comment read model over the in-memory comments (the authors are not this world's: none is joined). */
export class InMemoryCommentQuery implements CommentQuery {
  constructor(private readonly store: InMemoryCommentRepository) {}

  async onTask(projectId: string, taskId: string): Promise<CommentView[]> {
    return [...this.store.comments.values()]
      .filter((c) => c.projectId === projectId && c.taskId === taskId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(view);
  }

  async comment(projectId: string, commentId: string): Promise<CommentView | null> {
    const c = await this.store.find(projectId, commentId);
    return c && view(c);
  }
}

const view = (c: Comment): CommentView => ({ id: c.id, taskId: c.taskId, authorId: c.authorId, body: c.body, createdAt: c.createdAt, editedAt: c.editedAt, author: null });
