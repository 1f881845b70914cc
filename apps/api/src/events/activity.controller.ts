import { Controller, Get, Query } from '@nestjs/common';
import { ActivityFeedQuery } from '@board/persistence';
import { Member } from '../auth/access.decorator';
import { Writer, WriterOf } from '../auth/auth-context';
import { readInstant } from '../http/query-string';
import { FeedPageQuery } from './events.dto';

@Controller('projects/:projectId')
export class ActivityController {
  constructor(private readonly activity: ActivityFeedQuery) {}

  /** `?after=<ISO timestamp>&afterId=<entry id>&limit=<1..500>` → `{ activity, next }`. */
  @Member()
  @Get('activity')
  read(@WriterOf() writer: Writer, @Query() query: FeedPageQuery) {
    const from = query.after === undefined ? null : readInstant(query.after);
    const size = query.limit === undefined ? 100 : Number(query.limit);
    return this.activity.page(writer.projectId, size, from, from && query.afterId ? query.afterId.toLowerCase() : null);
  }
}
