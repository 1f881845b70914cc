import { Module } from '@nestjs/common';
import { RunQuery, PgRunRepository } from '@board/persistence';
import { RunRepository } from '@board/runs';
import { LeaseSweeper } from './lease.sweeper';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

@Module({
  controllers: [RunsController],
  providers: [{ provide: RunRepository, useClass: PgRunRepository }, RunQuery, RunsService, LeaseSweeper],
  exports: [RunsService, RunQuery],
})
export class RunsModule {}
