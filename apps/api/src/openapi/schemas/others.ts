import type { JsonSchema } from '../dto-schema';
import { anyJson, arrayOf, bool, int, nullable, obj, str, timestamp, uuid } from './common';

/** Webhooks, lists and charts: shapes the contract leaves "not shown", as the service answers them. */
export const OTHER_SCHEMAS: Record<string, JsonSchema> = {
  Delivery: obj({ id: uuid, kind: str, status: str, createdAt: timestamp }, ['status', 'createdAt'], 'One of the last 20 deliveries of a webhook.'),
  Webhook: obj({ id: uuid, url: str, kinds: arrayOf(str), enabled: bool }, ['kinds', 'enabled'], 'A webhook: URL, kinds (none means all), on/off; its secret is shown once.'),
  List: obj({ id: uuid, name: str }, [], 'A person\'s own list of tasks across projects.'),
  Chart: obj({ id: uuid, name: str }, ['name'], 'A person\'s chart over tasks across projects.'),
  ImportPreview: { type: 'object' },
  Json: anyJson,
  Count: obj({ tasks: int }),
  MaybeText: nullable(str),
};
