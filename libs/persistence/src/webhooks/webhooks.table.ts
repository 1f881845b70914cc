import { raw } from '../sql';

/** Table `webhooks`: a project's webhook; the secret is kept whole (it signs every body). */
export interface WebhookRow {
  id: string;
  projectId: string;
  url: string;
  kinds: string[];
  enabled: boolean;
  secret: string;
  createdAt: Date;
}

/** The columns of `WebhookRow`, read under their row names (no alias). */
export const WEBHOOK_COLUMNS = raw(`id, project_id AS "projectId", url, kinds, enabled, secret, created_at AS "createdAt"`);
