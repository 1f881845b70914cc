import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BeforeBody, refuseNonObjectBody } from '../http/before-body';
import { CommentsService } from './comments.service';

/**
 * Only a comment's author edits it, and the contract says so before it reads the edit's body
 * (a stranger's edit is refused whatever it sends).
 */
@Injectable()
export class CommentAuthorCheck extends BeforeBody {
  constructor(private readonly comments: CommentsService) {
    super();
  }

  protected async check(request: FastifyRequest): Promise<void> {
    refuseNonObjectBody(request);
    const { auth } = request;
    // The access guard (a comment's project gate) has set all three.
    if (!auth?.project || !auth.resourceId) throw new Error('CommentAuthorCheck runs behind the comment gate');
    await this.comments.checkEditable({ userId: auth.caller.id, kind: auth.caller.kind, role: auth.project.role }, auth.project.id, auth.resourceId);
  }
}
