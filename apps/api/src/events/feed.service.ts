import { Injectable } from '@nestjs/common';
import { ActivityFeedQuery } from '@board/persistence';
import { ProjectCaller } from '../auth/auth-context';
import type { FeedPageQuery } from './events.dto';

/** The project's activity feed, a page at a time, oldest or newest first. */
@Injectable()
export class FeedService {
  constructor(private readonly activity: ActivityFeedQuery) {}

  /** `after` and `afterId` continue a page in the order asked (`afterId` only with `after`). */
  page(caller: ProjectCaller, query: FeedPageQuery) {
    const from = query.after ?? null;
    return this.activity.page(caller.projectId, query.limit ?? 100, from, (from && query.afterId) ?? null, query.order ?? 'oldest');
  }
}
