import { Module } from '@nestjs/common';
import { DiscussionQueries, TypeormCommentRepository } from '@board/persistence';
import { CommentRepository } from '@board/tasks';
import { CommentsController } from './comments.controller';
import { CommentsService } from './comments.service';
import { RunsModule } from '../runs/runs.module';

@Module({
  imports: [RunsModule],
  controllers: [CommentsController],
  providers: [CommentsService, DiscussionQueries, { provide: CommentRepository, useClass: TypeormCommentRepository }],
  // The task's full read takes its checklist and comments from DiscussionQueries.
  exports: [DiscussionQueries],
})
export class CommentsModule {}
