import { Module } from '@nestjs/common';
import { CommentQuery, PgCommentRepository } from '@board/persistence';
import { CommentRepository } from '@board/tasks';
import { CommentsController } from './comments.controller';
import { CommentsService } from './comments.service';
import { RunsModule } from '../runs/runs.module';

@Module({
  imports: [RunsModule],
  controllers: [CommentsController],
  providers: [CommentsService, CommentQuery, { provide: CommentRepository, useClass: PgCommentRepository }],
})
export class CommentsModule {}
