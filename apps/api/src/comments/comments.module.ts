import { Module } from '@nestjs/common';
import { CommentQuery, PgCommentQuery, PgCommentRepository } from '@board/persistence';
import { CommentRepository } from '@board/tasks';
import { CommentsController } from './comments.controller';
import { CommentsService } from './comments.service';
import { RunsModule } from '../runs/runs.module';

@Module({
  imports: [RunsModule],
  controllers: [CommentsController],
  providers: [CommentsService, { provide: CommentQuery, useClass: PgCommentQuery }, { provide: CommentRepository, useClass: PgCommentRepository }],
})
export class CommentsModule {}
