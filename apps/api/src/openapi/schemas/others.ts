import type { JsonSchema } from '../dto-schema';
import { anyJson, arrayOf, bool, day, int, nullable, num, obj, ref, str, timestamp, uuid, words } from './common';

/** Webhooks, lists and charts: shapes the contract leaves "not shown", as the service answers them. */
export const OTHER_SCHEMAS: Record<string, JsonSchema> = {
  Delivery: obj(
    {
      id: uuid,
      kind: str,
      taskKey: nullable(str),
      status: { type: 'string', enum: ['pending', 'delivered', 'dropped'] },
      tries: int,
      lastCode: nullable(int),
      lastError: nullable(str),
      createdAt: timestamp,
      nextTryAt: nullable(timestamp),
      deliveredAt: nullable(timestamp),
    },
    [],
    'One of the last 20 deliveries of a webhook.',
  ),
  Webhook: obj(
    { id: uuid, url: str, kinds: arrayOf(str), enabled: bool, secretPrefix: str, createdAt: timestamp, lastDelivery: nullable(ref('Delivery')) },
    [],
    'A webhook: URL, kinds (none means all), on/off; its secret is shown once, then only its prefix.',
  ),
  List: obj({ id: uuid, name: str, count: int, createdAt: timestamp }, [], 'A person\'s own list of tasks across projects.'),
  Chart: obj(
    { id: uuid, name: str, kind: str, projectIds: arrayOf(uuid), propertyId: nullable(uuid), createdAt: timestamp },
    [],
    'A person\'s chart over tasks across projects.',
  ),
  ChartData: obj({
    chart: ref('Chart'),
    from: day,
    to: day,
    days: arrayOf(day),
    series: arrayOf(obj({ key: str, name: str, color: { ...nullable(str), description: 'flow: the option\'s colour; otherwise null.' }, values: arrayOf(num) })),
  }),
  AgentRules: obj({ text: str, hash: str, updatedAt: nullable(timestamp) }, [], 'The project\'s rules for its agents.'),
  ChangeEvent: obj(
    { projectId: uuid, scope: { type: 'string', enum: ['board', 'task', 'project'] }, taskId: uuid, clientId: nullable(str) },
    ['taskId'],
    'The data of a stream `change` event: what changed and where, never how.',
  ),
  PresenceEvent: obj(
    { projectId: uuid, kind: { const: 'presence' }, clientId: str, userId: uuid, taskId: nullable(uuid), field: nullable(str) },
    [],
    'The data of a stream `presence` event.',
  ),
  WebhookDelivery: obj(
    { delivery: uuid, projectId: uuid, projectKey: str, kind: str, taskId: nullable(uuid), taskKey: nullable(str), at: timestamp },
    [],
    'The body of a webhook delivery, signed `sha256=<hex>` over `<timestamp>.<raw body>`.',
  ),
  ImportPreview: obj(
    {
      kind: words('trello', 'export'),
      tasks: int,
      archived: int,
      lists: int,
      closedLists: int,
      labels: int,
      checklistItems: int,
      comments: int,
      skipped: arrayOf(ref('ImportSkip')),
      properties: int,
      views: int,
      runs: int,
      deleted: int,
    },
    ['properties', 'views', 'runs', 'deleted'],
    'What an import would do; `kind` says which document was read, and a project export adds the last four counts.',
  ),
  ImportSkip: obj({ sourceId: str, reason: str }, [], 'A card of the export left out, and why.'),
  Json: anyJson,
  Count: obj({ tasks: int }),
  MaybeText: nullable(str),
  Notification: obj(
    {
      id: uuid,
      kind: words('question', 'mention', 'assigned', 'run_ended'),
      at: timestamp,
      read: bool,
      project: obj({ id: uuid, key: str, name: str }),
      task: obj({ id: uuid, key: str, title: str }),
      actor: nullable(obj({ id: uuid, name: str, kind: words('human', 'agent') })),
      text: str,
    },
    [],
    'Something that needs you: the question, the comment\'s first 200 characters, the property\'s name (assigned), or `<status>: <step>` (run_ended).',
  ),
};
