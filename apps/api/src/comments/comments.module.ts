import { Module } from '@nestjs/common';
import { DiscussionQuery, PgCommentRepository } from '@board/persistence';
import { CommentRepository } from '@board/tasks';
import { CommentsController } from './comments.controller';
import { CommentsService } from './comments.service';
import { RunsModule } from '../runs/runs.module';

@Module({
  imports: [RunsModule],
  controllers: [CommentsController],
  providers: [CommentsService, DiscussionQuery, { provide: CommentRepository, useClass: PgCommentRepository }],
  // The task's full read takes its checklist and comments from DiscussionQuery.
  exports: [DiscussionQuery],
})
export class CommentsModule {}
