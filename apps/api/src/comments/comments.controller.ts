import { Body, Controller, Delete, HttpCode, Patch, Post, UseInterceptors } from '@nestjs/common';
import { COMMENT, Member, TASK } from '../auth/access.decorator';
import { ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { CommentAuthorCheck } from './comment-author.check';
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
  @UseInterceptors(CommentAuthorCheck)
  edit(@ResourceId() commentId: string, @ProjectCallerOf() caller: ProjectCaller, @Body() body: EditCommentBody) {
    return this.comments.edit(caller, commentId, body);
  }

  @Member(COMMENT)
  @Delete('comments/:commentId')
  async remove(@ResourceId() commentId: string, @ProjectCallerOf() caller: ProjectCaller) {
    await this.comments.remove(caller, commentId);
    return { ok: true };
  }
}
