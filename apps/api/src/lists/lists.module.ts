import { Module } from '@nestjs/common';
import { ListRepository } from '@board/lists';
import { ListQuery, PgListQuery, PgListRepository } from '@board/persistence';
import { ListTasksController } from './list-tasks.controller';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';

@Module({
  controllers: [ListsController, ListTasksController],
  providers: [{ provide: ListRepository, useClass: PgListRepository }, { provide: ListQuery, useClass: PgListQuery }, ListsService],
})
export class ListsModule {}
