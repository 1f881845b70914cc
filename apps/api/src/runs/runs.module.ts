import { Module } from '@nestjs/common';
import { RunQuery } from '@board/persistence';
import { BudgetService } from './budget.service';
import { LeaseSweeper } from './lease.sweeper';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

@Module({
  controllers: [RunsController],
  providers: [RunQuery, RunsService, BudgetService, LeaseSweeper],
  exports: [RunsService, RunQuery, BudgetService],
})
export class RunsModule {}
