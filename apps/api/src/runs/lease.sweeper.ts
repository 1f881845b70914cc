import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { RunsService } from './runs.service';

/** Closes runs whose agent stopped reporting, on every instance at once without clashing (SKIP LOCKED). */
@Injectable()
export class LeaseSweeper {
  private readonly logger = new Logger('lease');

  constructor(private readonly runs: RunsService) {}

  @Interval('run-lease', 60_000)
  async tick(): Promise<void> {
    try {
      await this.runs.expireOverdue();
    } catch (error) {
      this.logger.warn(`sweep failed: ${(error as Error).message}`);
    }
  }
}
