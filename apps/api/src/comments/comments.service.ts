import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityLine, Clock, fail, feedLine, notice, said, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { CommentQuery } from '@board/persistence';
import {
  assertCanDeleteComment, assertCanEditComment, Comment, CommentActor, commentDeletedData, CommentEdit, commentEditOutcome, CommentRepository,
  CommentView,
} from '@board/tasks';
import type { ProjectCaller } from '../auth/auth-context';
import { RunsService } from '../runs/runs.service';

const actorOf = (caller: ProjectCaller): CommentActor => ({ userId: caller.userId, kind: caller.kind, role: caller.role });

/**
 * Comments on a task. A person or an agent comments as itself. Every write that changes
 * something moves the task's `updated_at`, leaves one `comment` feed line and rings the task,
 * all in one transaction (a new comment under the task's row lock, edits and deletes under the
 * project lock); same words write and ring nothing.
 */
@Injectable()
export class CommentsService {
  constructor(
    private readonly comments: CommentRepository,
    private readonly queries: CommentQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly runs: RunsService,
  ) {}

  async add(caller: ProjectCaller, taskId: string, { body }: { body: string }): Promise<{ comment: CommentView }> {
    const projectId = caller.projectId;
    // The insert locks the task's row, not the project: comments on other tasks go on meanwhile.
    return this.uow.write(async () => {
      // One statement inserts it, moves the task's updated_at and reads it back as answers show it.
      const inserted = await this.comments.insert({ id: randomUUID(), projectId, taskId, authorId: caller.userId, body, now: this.clock.now() });
      if (!inserted) return fail('task.not_found');
      const { comment, view } = inserted;
      const events = [...this.lineAndRing(caller, comment, { commentId: comment.id }), this.words(caller, comment, null)];
      // A person's answer wakes an agent whose run waits on this task.
      if (caller.kind === 'human') events.push(...(await this.runs.answeredInComment(projectId, taskId, { id: caller.userId, name: caller.name })));
      return withEvents({ comment: view }, events);
    });
  }

  /**
   * The edit route's gate, checked before its body is read (the contract's order): the comment is
   * there and the caller wrote it.
   */
  async checkEditable(actor: CommentActor, projectId: string, commentId: string): Promise<void> {
    assertCanEditComment(actor, await this.load(projectId, commentId));
  }

  async edit(caller: ProjectCaller, commentId: string, edit: CommentEdit): Promise<{ comment: CommentView }> {
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        // Checked again under the lock: the gate ran before the transaction.
        const saved = await this.load(projectId, commentId);
        assertCanEditComment(actorOf(caller), saved);
        const written = await this.comments.rewrite(projectId, commentId, edit, this.clock.now());
        if (written) {
          const events = [...(await this.changed(caller, written, { commentId, action: 'edited' })), this.words(caller, written, saved.body)];
          return withEvents({ comment: await this.view(written) }, events);
        }
        // Nothing written: gone, clashed, or the same words.
        const current = await this.load(projectId, commentId);
        if (commentEditOutcome(current.body, edit) === 'clash') fail('task.clash', {}, { field: 'body', current: current.body });
        return silent({ comment: await this.view(current) });
      },
      { lockProject: projectId },
    );
  }

  async remove(caller: ProjectCaller, commentId: string): Promise<void> {
    const projectId = caller.projectId;
    await this.uow.write(
      async () => {
        const comment = await this.load(projectId, commentId);
        const { byProject } = assertCanDeleteComment(actorOf(caller), comment);
        if (!(await this.comments.remove(projectId, commentId))) fail('comment.not_found');
        return withEvents(undefined, await this.changed(caller, comment, commentDeletedData(commentId, comment.authorId, byProject)));
      },
      { lockProject: projectId },
    );
  }

  /** The comment's words, for the people it mentions (on an edit, only those it did not mention before). */
  private words(caller: ProjectCaller, comment: Comment, before: string | null): WriteEvent {
    return said({ kind: 'comment', projectId: comment.projectId, taskId: comment.taskId, actorId: caller.userId, text: comment.body, before });
  }

  private async load(projectId: string, commentId: string): Promise<Comment> {
    const comment = await this.comments.find(projectId, commentId);
    if (!comment) return fail('comment.not_found');
    return comment;
  }

  private async view(comment: Comment): Promise<CommentView> {
    const view = await this.queries.comment(comment.projectId, comment.id);
    if (!view) return fail('comment.not_found');
    return view;
  }

  /** Moves the task's `updated_at`; answers the write's events: its `comment` line and the task's ring. */
  private async changed(caller: ProjectCaller, comment: Comment, data: ActivityLine['data']): Promise<WriteEvent[]> {
    await this.comments.touchTask(comment.projectId, comment.taskId, this.clock.now());
    return this.lineAndRing(caller, comment, data);
  }

  /** A comment write's events: its `comment` line and the task's ring. */
  private lineAndRing(caller: ProjectCaller, comment: Comment, data: ActivityLine['data']): WriteEvent[] {
    return [
      feedLine({ projectId: comment.projectId, taskId: comment.taskId, actorId: caller.userId, kind: 'comment', data }),
      notice({ projectId: comment.projectId, scope: 'task', taskId: comment.taskId, clientId: caller.clientId }),
    ];
  }
}
