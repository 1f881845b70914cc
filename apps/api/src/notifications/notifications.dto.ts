import { MARK_MAX, readMarkIds } from '@board/notifications';
import { Keeps, ReadIdField } from '../http/dto/field-rules';

/** GET /notifications: the page after this notification (newest first). */
export class NotificationsQuery {
  @ReadIdField('notification')
  before?: string | null;
}

/** POST /notifications/read: `{ all: true }`, else `{ ids }`; each kept as read. */
export class MarkReadBody {
  /** Only `true` marks them all (the ids are then not read). */
  @Keeps('all', (value) => value === true, { doc: { schema: { type: 'boolean', description: 'true: every one of your notifications.' } } })
  all: boolean;

  @Keeps('ids', readMarkIds, {
    skip: (dto) => (dto as MarkReadBody).all,
    doc: { schema: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: MARK_MAX, description: 'At most 200 of your notifications; others are ignored.' } },
  })
  ids?: string[];
}
