import { CheckedInService, IdField } from '../http/dto/field-rules';

/** GET /notifications: the page after this notification (newest first). */
export class NotificationsQuery {
  @IdField('notification')
  before?: string | null;
}

/** POST /notifications/read: `{ ids }` or `{ all: true }`, checked together by the service. */
export class MarkReadBody {
  @CheckedInService('ids', { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 200, description: 'At most 200 of your notifications; others are ignored.' })
  ids?: unknown;

  @CheckedInService('all', { type: 'boolean', description: 'true: every one of your notifications.' })
  all?: unknown;
}
