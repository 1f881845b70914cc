import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BackgroundWork, Metrics } from '@board/kernel';
import { RunsService } from './runs.service';

/** Closes runs whose agent stopped reporting, on every instance at once without clashing (SKIP LOCKED). */
@Injectable()
export class LeaseSweeper {
  private readonly logger = new Logger('lease');

  constructor(
    private readonly runs: RunsService,
    private readonly background: BackgroundWork,
    private readonly metrics: Metrics,
  ) {}

  @Interval('run-lease', 60_000)
  async tick(): Promise<void> {
    try {
      // On the background connections: runs are closed while requests fill their pool.
      await this.metrics.sweep('run-lease', () => this.background.run(() => this.runs.expireOverdue()));
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }
}
