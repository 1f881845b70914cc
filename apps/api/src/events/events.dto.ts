import { fail, isUuid } from '@board/kernel';
import { Keeps, ReadIdField, TextField } from '../http/dto/field-rules';
import { readInstant } from '../http/query-string';

/** The feed's page size: 1 to 500, 100 when absent. */
export const FEED_LIMIT_MAX = 500;

/**
 * GET /projects/:projectId/activity?after=<ISO timestamp>&afterId=<entry id>&limit=<1..500>.
 * `after` is read into UTC here: a timestamp PostgreSQL would refuse (February 30th, hour 24) is
 * a 400, not a 500.
 */
export class FeedPageQuery {
  @Keeps('feed-after', (value) => (value === undefined ? undefined : (readInstant(value) ?? fail('feed.after_invalid'))), { doc: {
    schema: { type: 'string', format: 'date-time', description: 'With afterId, the `next` cursor of the page before.' },
  } })
  after?: string;

  @Keeps('feed-after-id', (value) => (value === undefined ? undefined : isUuid(value) ? value.toLowerCase() : fail('feed.after_id_invalid')), { doc: {
    schema: { type: 'string', format: 'uuid', description: 'With after, the `next` cursor of the page before.' },
  } })
  afterId?: string;

  @Keeps('feed-limit', (value) => {
    if (value === undefined) return undefined;
    const size = Number(value);
    return /^\d+$/.test(String(value)) && size >= 1 && size <= FEED_LIMIT_MAX ? size : fail('query.limit_invalid');
  }, { doc: { schema: { type: 'integer', minimum: 1, maximum: FEED_LIMIT_MAX, description: 'Lines in the page (100 when left out).' } } })
  limit?: number;

  @Keeps('feed-order', (value) => (value === undefined || value === 'oldest' || value === 'newest' ? value : fail('feed.order_invalid')), { doc: {
    schema: { type: 'string', enum: ['oldest', 'newest'], default: 'oldest', description: 'The reading order; `after`/`afterId` and `next` continue in it (newest: to older lines).' },
  } })
  order?: 'oldest' | 'newest';
}

/** `title`, `description` or `checklist:<item id>`, any case. */
const PRESENCE_FIELD = /^(title|description|checklist:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** POST /projects/:projectId/presence `{ clientId, taskId, field }`: taskId null means the tab closed the task. */
export class PresenceBody {
  @TextField('clientId', { max: 200, required: true })
  clientId: string;

  @ReadIdField('task')
  taskId?: string | null;

  /** Held in lower case (a checklist item's id). */
  @Keeps('presence-field', (value) =>
    value === undefined || value === null ? value : typeof value === 'string' && PRESENCE_FIELD.test(value) ? value.toLowerCase() : fail('presence.field_invalid'), { doc: { schema: { type: ['string', 'null'], description: 'What you are editing: `title`, `description` or `checklist:<item id>`; null: nothing.', examples: ['description'] } } })
  field?: string | null;
}
