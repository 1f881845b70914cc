import { parseWebhookUrl, readEnabled, readKinds } from '@board/webhooks';
import { Keeps } from '../http/dto/field-rules';

/**
 * The address's form (`parseWebhookUrl`), kept as the URL's text; whether its host may be reached
 * is checked whole before the body is read (`WebhookAddressCheck`).
 */
const UrlField = (options: { optional: boolean }): PropertyDecorator =>
  Keeps('webhook-url', (value) => parseWebhookUrl(value).toString(), { optional: options.optional, doc: { schema: { type: 'string' }, required: !options.optional } });

/** Absent or null is none; else a list of activity kinds (`readKinds`'s refusals). */
const KindsField = (options: { absent: 'none' | 'kept' }): PropertyDecorator =>
  Keeps('webhook-kinds', (value) => (value === undefined && options.absent === 'kept' ? undefined : readKinds(value)), {
    doc: { schema: { type: 'array', items: { type: 'string' } } },
  });

/** Absent is on for a new webhook and unchanged for a saved one; else a boolean (`readEnabled`'s refusal). */
const EnabledField = (absent: boolean | undefined): PropertyDecorator =>
  Keeps('webhook-enabled', (value) => (value === undefined ? absent : readEnabled(value, true)), { doc: { schema: { type: 'boolean' } } });

/**
 * POST /projects/:projectId/webhooks, fields in the order the contract checks them. The address is
 * checked whole first (its host against the server's allow list and DNS, which a DTO cannot do),
 * by `WebhookAddressCheck` before the body is read.
 */
export class CreateWebhookBody {
  @UrlField({ optional: false })
  url: string;

  @KindsField({ absent: 'none' })
  kinds: string[];

  @EnabledField(true)
  enabled: boolean;
}

/**
 * PATCH /projects/:projectId/webhooks/:webhookId: the webhook must exist (404) and a new address
 * pass its whole check before the other fields (`WebhookAddressCheck`). An absent field keeps the
 * saved value; `roll: true` makes a new secret, any other value leaves it.
 */
export class UpdateWebhookBody {
  @UrlField({ optional: true })
  url?: string;

  @KindsField({ absent: 'kept' })
  kinds?: string[];

  @EnabledField(undefined)
  enabled?: boolean;

  @Keeps('webhook-roll', (value) => value === true, { doc: { schema: { type: 'boolean' } } })
  roll: boolean;
}
