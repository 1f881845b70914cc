import { Controller, Get, Query } from '@nestjs/common';
import { Member } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { UsageDaysQuery } from './usage.dto';
import { UsageService } from './usage.service';

@Controller('projects/:projectId')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  // TODO(heavy read): usage is a heavy read in Fair use terms (at most 2 at once per person).
  @Member()
  @Get('usage')
  read(@ProjectCallerOf() caller: ProjectCaller, @Query() query: UsageDaysQuery) {
    return this.usage.read(caller, query);
  }
}
