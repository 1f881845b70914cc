import { Injectable } from '@nestjs/common';
import { ActivityFeedQuery } from '@board/persistence';
import { ProjectCaller } from '../auth/auth-context';
import { readInstant } from '../http/query-string';
import type { FeedPageQuery } from './events.dto';

/** The project's activity feed, a page at a time, oldest or newest first. */
@Injectable()
export class FeedService {
  constructor(private readonly activity: ActivityFeedQuery) {}

  /** `after` and `afterId` continue a page in the order asked; the query DTO has checked their shape. */
  page(caller: ProjectCaller, query: FeedPageQuery) {
    const from = query.after === undefined ? null : readInstant(query.after);
    const size = query.limit === undefined ? 100 : Number(query.limit);
    const order = query.order === 'newest' ? 'newest' : 'oldest';
    return this.activity.page(caller.projectId, size, from, from && query.afterId ? query.afterId.toLowerCase() : null, order);
  }
}
