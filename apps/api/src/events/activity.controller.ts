import { Controller, Get, Query } from '@nestjs/common';
import { ActivityFeedQuery } from '@board/persistence';
import { Member } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { readInstant } from '../http/query-string';
import { FeedPageQuery } from './events.dto';

@Controller('projects/:projectId')
export class ActivityController {
  constructor(private readonly activity: ActivityFeedQuery) {}

  /** `?after=<ISO timestamp>&afterId=<entry id>&limit=<1..500>&order=oldest|newest` → `{ activity, next }`. */
  @Member()
  @Get('activity')
  read(@ProjectCallerOf() caller: ProjectCaller, @Query() query: FeedPageQuery) {
    const from = query.after === undefined ? null : readInstant(query.after);
    const size = query.limit === undefined ? 100 : Number(query.limit);
    const order = query.order === 'newest' ? 'newest' : 'oldest';
    return this.activity.page(caller.projectId, size, from, from && query.afterId ? query.afterId.toLowerCase() : null, order);
  }
}
