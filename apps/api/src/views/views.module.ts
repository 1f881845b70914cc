import { Module } from '@nestjs/common';
import { ViewTaskPageQuery } from '@board/persistence';
import { TasksModule } from '../tasks/tasks.module';
import { ViewsController } from './views.controller';
import { ViewsService } from './views.service';

@Module({
  imports: [TasksModule],
  controllers: [ViewsController],
  providers: [ViewTaskPageQuery, ViewsService],
})
export class ViewsModule {}
