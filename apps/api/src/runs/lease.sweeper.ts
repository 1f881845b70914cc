import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BackgroundWork, Metrics } from '@board/kernel';
import { PASS_STOP_WAIT_MS, RunningPasses } from '../system/running-passes';
import { RunsService } from './runs.service';

/**
 * Closes runs whose agent stopped reporting, on every instance at once without clashing (SKIP
 * LOCKED). A stop waits for the sweep under way (batches of a hundred runs, each its own transaction).
 */
@Injectable()
export class LeaseSweeper implements OnModuleDestroy {
  private readonly logger = new Logger('lease');
  private readonly passes = new RunningPasses();

  constructor(
    private readonly runs: RunsService,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
  ) {}

  async onModuleDestroy(): Promise<void> {
    if (!(await this.passes.stop(PASS_STOP_WAIT_MS))) this.logger.warn('a lease sweep did not end in time at shutdown');
  }

  @Interval('run-lease', 60_000)
  async tick(): Promise<void> {
    try {
      // On the background connections: runs are closed while requests fill their pool.
      await this.passes.run(() => this.metrics.sweep('run-lease', () => this.background.run(() => this.runs.expireOverdue())), 0);
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }
}
