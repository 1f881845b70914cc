import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { TaskCreateRepository, TaskMoveRepository, TaskRepository, TaskValueRepository } from '@board/tasks';
import { BoardQuery, ChangelogQuery, PgBoardQuery, PgChangelogQuery, PgProjectFactsQuery, PgPropertyListQuery, PgTaskCreateRepository, PgTaskMoveRepository, PgTaskQuery, PgTaskRepository, PgTaskValueRepository, PgValueNamesQuery, ProjectFactsQuery, PropertyListQuery, TaskQuery, ValueNamesQuery } from '@board/persistence';
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
    { provide: ChangelogQuery, useClass: PgChangelogQuery },
    { provide: PropertyListQuery, useClass: PgPropertyListQuery },
    { provide: TaskRepository, useClass: PgTaskRepository },
    { provide: TaskValueRepository, useClass: PgTaskValueRepository },
    { provide: TaskCreateRepository, useClass: PgTaskCreateRepository },
    { provide: TaskMoveRepository, useClass: PgTaskMoveRepository },
    { provide: TaskQuery, useClass: PgTaskQuery },
    { provide: BoardQuery, useClass: PgBoardQuery },
    { provide: ProjectFactsQuery, useClass: PgProjectFactsQuery },
    { provide: ValueNamesQuery, useClass: PgValueNamesQuery },
    TasksService,
    LinksService,
    BulkService,
    BoardService,
    RetentionSweeper,
  ],
  exports: [TaskRepository, TaskQuery, TasksService, ProjectFactsQuery],
})
export class TasksModule {}
