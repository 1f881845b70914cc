import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module';
import { TasksModule } from '../tasks/tasks.module';
import { QueueController } from './queue.controller';
import { QueueService } from './queue.service';

/** The work queue: `runs/next` claims like a claim and answers the task as a task read does. */
@Module({
  imports: [RunsModule, TasksModule],
  controllers: [QueueController],
  providers: [QueueService],
})
export class QueueModule {}
