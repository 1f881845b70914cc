import { Injectable } from '@nestjs/common';
import { DaysAsked, dayRange } from '@board/charts';
import { Clock } from '@board/kernel';
import { UsageQuery } from '@board/persistence';
import { ProjectCaller } from '../auth/auth-context';

/** What a project's agents used and cost, per agent and per UTC day (extensions § 1.4). */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: UsageQuery,
    private readonly clock: Clock,
  ) {}

  async read(caller: ProjectCaller, days: DaysAsked) {
    const range = dayRange(days, this.clock.now());
    return { ...range, ...(await this.usage.read(caller.projectId, range.days)) };
  }
}
