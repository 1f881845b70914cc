import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { TaskCreateRepository, TaskMoveRepository, TaskRepository, TaskValueRepository } from '@board/tasks';
import { BoardQuery, ChangelogQuery, PgTaskCreateRepository, PgTaskMoveRepository, PgTaskRepository, PgTaskValueRepository, ProjectFactsQuery, ValueNamesQuery, PropertyListQuery, TaskQuery } from '@board/persistence';
import { BoardController } from './board.controller';
import { BoardService } from './board.service';
import { BoardCache } from './board-cache';
import { BulkService } from './bulk.service';
import { LinksService } from './links.service';
import { RetentionSweeper } from './retention.sweeper';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [RunsModule],
  controllers: [TasksController, BoardController],
  providers: [
    BoardCache,
    ChangelogQuery,
    PropertyListQuery,
    { provide: TaskRepository, useClass: PgTaskRepository },
    { provide: TaskValueRepository, useClass: PgTaskValueRepository },
    { provide: TaskCreateRepository, useClass: PgTaskCreateRepository },
    { provide: TaskMoveRepository, useClass: PgTaskMoveRepository },
    TaskQuery,
    BoardQuery,
    ProjectFactsQuery,
    ValueNamesQuery,
    TasksService,
    LinksService,
    BulkService,
    BoardService,
    RetentionSweeper,
  ],
  exports: [TaskRepository, TaskQuery, TasksService, ProjectFactsQuery],
})
export class TasksModule {}
