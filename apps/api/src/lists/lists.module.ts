import { Module } from '@nestjs/common';
import { ListQueries, ListStore } from '@board/persistence';
import { ListTasksController } from './list-tasks.controller';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';

@Module({
  controllers: [ListsController, ListTasksController],
  providers: [ListStore, ListQueries, ListsService],
})
export class ListsModule {}
