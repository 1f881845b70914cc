import { parseWebhookUrl, readEnabled, readKinds } from '@board/webhooks';
import { FieldRule, refusalOf } from '../http/dto/field-rules';

/** The address's form (`parseWebhookUrl`); whether its host may be reached is the service's check. */
const UrlField = (options: { optional: boolean }): PropertyDecorator =>
  FieldRule('webhook-url', (value) => (options.optional && value === undefined ? null : refusalOf(() => parseWebhookUrl(value))), {
    schema: { type: 'string' },
    required: !options.optional,
  });

/** Absent or null is none; else a list of activity kinds (`readKinds`'s refusals). */
const KindsField = (): PropertyDecorator =>
  FieldRule('webhook-kinds', (value) => refusalOf(() => readKinds(value)), { schema: { type: 'array', items: { type: 'string' } } });

/** Absent keeps the current value; else a boolean (`readEnabled`'s refusal). */
const EnabledField = (): PropertyDecorator =>
  FieldRule('webhook-enabled', (value) => refusalOf(() => readEnabled(value, true)), { schema: { type: 'boolean' } });

/**
 * POST /projects/:projectId/webhooks, fields in the order the contract checks them. The address is
 * checked first and whole (its host against the server's allow list and DNS, which a DTO cannot
 * do), so the service reads this with `parseRequest` after that check.
 */
export class CreateWebhookBody {
  @UrlField({ optional: false })
  url: string;

  @KindsField()
  kinds?: string[] | null;

  @EnabledField()
  enabled?: boolean;
}

/**
 * PATCH /projects/:projectId/webhooks/:webhookId: the webhook must exist (404) and a new address
 * pass its whole check before the other fields, so the service reads this with `parseRequest`
 * after both. `roll: true` makes a new secret; any other value leaves it.
 */
export class UpdateWebhookBody {
  @UrlField({ optional: true })
  url?: string;

  @KindsField()
  kinds?: string[] | null;

  @EnabledField()
  enabled?: boolean;

  @FieldRule('webhook-roll', () => null, { schema: { type: 'boolean' } })
  roll?: unknown;
}
