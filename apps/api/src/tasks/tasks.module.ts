import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { BoardQueries, ChangelogQuery, PropertyListQuery, TaskCreateStore, TaskQueries, TaskRepository, TaskValueStore } from '@board/persistence';
import { BoardController } from './board.controller';
import { BoardService } from './board.service';
import { BoardCache } from './board-cache';
import { BulkService } from './bulk.service';
import { LinksService } from './links.service';
import { RetentionSweeper } from './retention.sweeper';
import { ProjectFactsQuery } from './task-context';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [RunsModule],
  controllers: [TasksController, BoardController],
  providers: [BoardCache, ChangelogQuery, PropertyListQuery, TaskRepository, TaskValueStore, TaskCreateStore, TaskQueries, BoardQueries, ProjectFactsQuery, TasksService, LinksService, BulkService, BoardService, RetentionSweeper],
  exports: [TaskRepository, TaskQueries, TasksService, ProjectFactsQuery],
})
export class TasksModule {}
