import { Body, Controller, Delete, HttpCode, Patch, Post } from '@nestjs/common';
import { COMMENT, Member, TASK } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { AfterGate, BodyAfterGate } from '../http/dto/after-gate';
import { AddCommentBody, EditCommentBody } from './comments.dto';
import { CommentsService } from './comments.service';

/** Comments: any member may comment; edits are the author's; deletes the author's or a managing person's. */
@Controller()
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Member(TASK)
  @Post('tasks/:taskId/comments')
  @HttpCode(201)
  add(@ResourceId() taskId: string, @ProjectCallerOf() caller: ProjectCaller, @Body() body: AddCommentBody) {
    return this.comments.add(caller, taskId, body);
  }

  @Member(COMMENT)
  @Patch('comments/:commentId')
  edit(@ResourceId() commentId: string, @ProjectCallerOf() caller: ProjectCaller, @BodyAfterGate(EditCommentBody) body: AfterGate<EditCommentBody>) {
    // Read by the service after its author gate (the contract's order).
    return this.comments.edit(caller, commentId, body);
  }

  @Member(COMMENT)
  @Delete('comments/:commentId')
  async remove(@ResourceId() commentId: string, @ProjectCallerOf() caller: ProjectCaller) {
    await this.comments.remove(caller, commentId);
    return { ok: true };
  }
}
