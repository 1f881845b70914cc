import { Module } from '@nestjs/common';
import { ListRepository } from '@board/lists';
import { ListQuery, PgListRepository } from '@board/persistence';
import { ListTasksController } from './list-tasks.controller';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';

@Module({
  controllers: [ListsController, ListTasksController],
  providers: [{ provide: ListRepository, useClass: PgListRepository }, ListQuery, ListsService],
})
export class ListsModule {}
