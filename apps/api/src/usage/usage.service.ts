import { Injectable } from '@nestjs/common';
import { readDayRange } from '@board/charts';
import { Clock } from '@board/kernel';
import { UsageQuery } from '@board/persistence';
import { ProjectCaller } from '../auth/auth-context';
import type { UsageDaysQuery } from './usage.dto';

/** What a project's agents used and cost, per agent and per UTC day (extensions § 1.4). */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: UsageQuery,
    private readonly clock: Clock,
  ) {}

  async read(caller: ProjectCaller, query: UsageDaysQuery) {
    const range = readDayRange({ from: query.from, to: query.to }, this.clock.now());
    return { ...range, ...(await this.usage.read(caller.projectId, range.days)) };
  }
}
