import { Module } from '@nestjs/common';
import { PgRunQuery, RunQuery } from '@board/persistence';
import { BudgetService } from './budget.service';
import { LeaseSweeper } from './lease.sweeper';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

@Module({
  controllers: [RunsController],
  providers: [{ provide: RunQuery, useClass: PgRunQuery }, RunsService, BudgetService, LeaseSweeper],
  exports: [RunsService, RunQuery, BudgetService],
})
export class RunsModule {}
