import { Controller, Get, Query } from '@nestjs/common';
import { fail, isUuid } from '@board/kernel';
import { Member } from '../auth/access.decorator';
import { Writer, WriterOf } from '../auth/auth-context';
import { readInstant } from '../http/query-string';
import { ActivityFeedQuery } from '@board/persistence';

@Controller('projects/:projectId')
export class ActivityController {
  constructor(private readonly activity: ActivityFeedQuery) {}

  /** `?after=<ISO timestamp>&afterId=<entry id>&limit=<1..500>` → `{ activity, next }`. */
  @Member()
  @Get('activity')
  read(@WriterOf() writer: Writer, @Query('after') after?: string, @Query('afterId') afterId?: string, @Query('limit') limit?: string) {
    // Read into UTC here: a timestamp PostgreSQL would refuse (February 30th, hour 24) is a 400, not a 500.
    const from = after === undefined ? null : readInstant(after);
    if (after !== undefined && !from) fail('feed.after_invalid');
    if (afterId !== undefined && !isUuid(afterId)) fail('feed.after_id_invalid');
    let size = 100;
    if (limit !== undefined) {
      size = Number(limit);
      if (!/^\d+$/.test(String(limit)) || size < 1 || size > 500) fail('query.limit_invalid');
    }
    return this.activity.page(writer.projectId, size, from, from && afterId ? afterId.toLowerCase() : null);
  }
}
