import { Controller, Get, Query } from '@nestjs/common';
import { fail, isUuid } from '@board/kernel';
import { Member } from '../auth/access.decorator';
import { Writer, WriterOf } from '../auth/auth-context';
import { ActivityQueries } from './activity.queries';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:?\d{2})$/;

@Controller('projects/:projectId')
export class ActivityController {
  constructor(private readonly activity: ActivityQueries) {}

  /** `?after=<ISO timestamp>&afterId=<entry id>&limit=<1..500>` → `{ activity, next }`. */
  @Member()
  @Get('activity')
  read(@WriterOf() writer: Writer, @Query('after') after?: string, @Query('afterId') afterId?: string, @Query('limit') limit?: string) {
    if (after !== undefined && (typeof after !== 'string' || !ISO.test(after) || Number.isNaN(Date.parse(after)))) {
      fail('request.invalid', { message: 'after must be a timestamp like 2026-01-31T12:00:00.000Z.' });
    }
    if (afterId !== undefined && !isUuid(afterId)) fail('request.invalid', { message: 'afterId must be the id of a feed line.' });
    let size = 100;
    if (limit !== undefined) {
      size = Number(limit);
      if (!/^\d+$/.test(String(limit)) || size < 1 || size > 500) fail('request.invalid', { message: 'limit is a whole number from 1 to 500.' });
    }
    return this.activity.page(writer.projectId, size, after ?? null, after !== undefined && afterId ? afterId.toLowerCase() : null);
  }
}
