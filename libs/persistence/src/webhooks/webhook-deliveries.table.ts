import { raw } from '../sql';

// Table `webhook_deliveries`: the outbox of a project's webhooks, one row per webhook and feed line.

/** The one column list of a `DeliveryView`, over the alias `d`. */
export const DELIVERY_VIEW_COLUMNS = raw(`d.id, d.kind, d.task_key AS "taskKey", d.status, d.tries, d.last_code AS "lastCode", d.last_error AS "lastError",
  d.created_at AS "createdAt", CASE WHEN d.status = 'pending' THEN d.next_try_at END AS "nextTryAt", d.delivered_at AS "deliveredAt"`);

/** The columns of a `DueDelivery`, over `d` and its webhook `w`. */
export const DUE_DELIVERY_COLUMNS = raw(`d.id, d.project_id AS "projectId", d.webhook_id AS "webhookId", w.url, w.secret, d.body, d.tries, d.lease`);
