import { Module } from '@nestjs/common';
import { ListQuery, ListRepository } from '@board/persistence';
import { ListTasksController } from './list-tasks.controller';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';

@Module({
  controllers: [ListsController, ListTasksController],
  providers: [ListRepository, ListQuery, ListsService],
})
export class ListsModule {}
