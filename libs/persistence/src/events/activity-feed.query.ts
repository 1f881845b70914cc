import type { ActivityLineRow } from '../activity/activity.table';

export interface FeedCursor {
  after: string;
  afterId: string;
}

/** One line of the feed as the answer shows it. */
export interface FeedEntry extends ActivityLineRow {
  actor: { id: string; name: string; color: string; emoji: string | null } | null;
  taskId: string | null;
  taskKey: string | null;
}

export type FeedOrder = 'oldest' | 'newest';

/**
 * The project's feed by (createdAt, id) as answers show them (to the millisecond), oldest first or
 * newest first: a cursor continues in the reading order and never skips nor repeats a line.
 */
export abstract class ActivityFeedQuery {
  /** Up to `limit` lines past the cursor (`after`, `afterId`), and the cursor of the next page when the page is full. */
  abstract page(projectId: string, limit: number, after: string | null, afterId: string | null, order?: FeedOrder): Promise<{ activity: FeedEntry[]; next: FeedCursor | null }>;
}
