import type { DeliveryStatus } from '@board/webhooks';
import { raw } from '../sql';

/** A row of `webhook_deliveries` as every answer shows it (the deliveries list, one delivery, a webhook's last one). */
export interface DeliveryView {
  id: string;
  kind: string;
  taskKey: string | null;
  status: DeliveryStatus;
  tries: number;
  lastCode: number | null;
  lastError: string | null;
  createdAt: Date;
  /** Only while a try is still to come. */
  nextTryAt: Date | null;
  deliveredAt: Date | null;
}

/** The one column list of `DeliveryView`, over the alias `d`. */
export const DELIVERY_VIEW_COLUMNS = raw(`d.id, d.kind, d.task_key AS "taskKey", d.status, d.tries, d.last_code AS "lastCode", d.last_error AS "lastError",
  d.created_at AS "createdAt", CASE WHEN d.status = 'pending' THEN d.next_try_at END AS "nextTryAt", d.delivered_at AS "deliveredAt"`);

/** A due delivery as the worker claims it (with its webhook's address and secret). */
export interface DueDelivery {
  id: string;
  projectId: string;
  webhookId: string;
  url: string;
  secret: string;
  body: string;
  tries: number;
}
