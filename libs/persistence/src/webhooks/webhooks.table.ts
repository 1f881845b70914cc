import { SECRET_PREFIX_LENGTH } from '@board/webhooks';
import { raw, sql } from '../sql';

// Table `webhooks`: a project's webhook; the secret is kept whole (it signs every body).

/** The columns of a `WebhookRecord`, read under their record names (no alias). */
export const WEBHOOK_COLUMNS = raw(`id, project_id AS "projectId", url, kinds, enabled, secret, created_at AS "createdAt"`);

/** The columns of a `WebhookView` but its last delivery, over the alias `w`: the secret only as its prefix. */
export const WEBHOOK_VIEW_COLUMNS = sql`w.id, w.url, w.kinds, w.enabled, left(w.secret, ${SECRET_PREFIX_LENGTH}) AS "secretPrefix", w.created_at AS "createdAt"`;
