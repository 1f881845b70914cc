import { Controller, Get, Query } from '@nestjs/common';
import { Member } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { FeedPageQuery } from './events.dto';
import { FeedService } from './feed.service';
import { ReplicaRead } from '../http/replica-read.decorator';

@Controller('projects/:projectId')
export class ActivityController {
  constructor(private readonly feed: FeedService) {}

  /** `?after=<ISO timestamp>&afterId=<entry id>&limit=<1..500>&order=oldest|newest` → `{ activity, next }`. */
  @Member()
  @ReplicaRead()
  @Get('activity')
  read(@ProjectCallerOf() caller: ProjectCaller, @Query() query: FeedPageQuery) {
    return this.feed.page(caller, query);
  }
}
