import { Module } from '@nestjs/common';
import { RunQueries, TypeormRunRepository } from '@board/persistence';
import { RunRepository } from '@board/runs';
import { LeaseSweeper } from './lease.sweeper';
import { RunsController } from './runs.controller';
import { RunsService } from './runs.service';

@Module({
  controllers: [RunsController],
  providers: [{ provide: RunRepository, useClass: TypeormRunRepository }, RunQueries, RunsService, LeaseSweeper],
  exports: [RunsService, RunQueries],
})
export class RunsModule {}
