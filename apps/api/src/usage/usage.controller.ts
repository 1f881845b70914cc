import { Controller, Get, Query } from '@nestjs/common';
import { Member } from '../auth/access.decorator';
import { HeavyRead } from '../http/heavy-read.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { UsageDaysQuery } from './usage.dto';
import { UsageService } from './usage.service';
import { ReplicaRead } from '../http/replica-read.decorator';

@Controller('projects/:projectId')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  /** A heavy read (decisions.md › Fair use): at most 2 at once per person or agent. */
  @Member()
  @HeavyRead('usage')
  @ReplicaRead()
  @Get('usage')
  read(@ProjectCallerOf() caller: ProjectCaller, @Query() query: UsageDaysQuery) {
    return this.usage.read(caller, query);
  }
}
