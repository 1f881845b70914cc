import type { JsonSchema } from './dto-schema';
import { anyJson, arrayOf, bool, nullable, obj, ref, str, uuid, words } from './schemas/common';

const text = (maxLength?: number): JsonSchema => ({ type: 'string', ...(maxLength ? { maxLength } : {}) });
/** A request body: its listed fields; others are ignored by the service, so the schema allows them. */
const open = ({ additionalProperties: _closed, ...schema }: JsonSchema): JsonSchema => schema;
const optional = (properties: Record<string, JsonSchema>) => open(obj(properties, Object.keys(properties)));
const some = (properties: Record<string, JsonSchema>, required: string[]) => open(obj(properties, Object.keys(properties).filter((k) => !required.includes(k))));

/**
 * Request bodies of the routes that read no DTO class yet, written from the contract. A route that
 * gains a DTO (`@Body() body: XBody`) is documented from the DTO instead: this entry is then unused
 * and the document test says so, so it can be deleted.
 */
export const FALLBACK_BODIES: Record<string, JsonSchema> = {
  'POST /api/auth/register': some({ email: text(200), name: text(80), password: { type: 'string', minLength: 8 } }, ['email', 'name', 'password']),
  'POST /api/auth/login': some({ email: str, password: str }, ['email', 'password']),
  'POST /api/auth/reset': some({ token: { type: 'string', description: 'svcr_…' }, password: { type: 'string', minLength: 8 } }, ['token', 'password']),
  'POST /api/auth/forgot': some({ email: text(200) }, ['email']),
  'PATCH /api/auth/me': optional({ name: text(80), color: str, emoji: nullable(str) }),
  'POST /api/auth/password': some({ current: str, next: { type: 'string', minLength: 8 } }, ['current', 'next']),
  'POST /api/projects': some({ name: str, key: str }, ['name']),
  'PATCH /api/projects/{projectId}': optional({ name: str, key: str, releases: bool, sprints: bool, doneWhen: anyJson }),
  'POST /api/projects/{projectId}/hand-over': some({ userId: uuid }, ['userId']),
  'PUT /api/projects/{projectId}/position': optional({ afterId: nullable(uuid) }),
  'PUT /api/projects/{projectId}/rules': some({ text: str }, ['text']),
  'POST /api/projects/{projectId}/members': some({ email: text(200), role: words('member', 'admin') }, ['email']),
  'PATCH /api/projects/{projectId}/members/{userId}': some({ role: words('member', 'admin') }, ['role']),
  'POST /api/projects/{projectId}/agents': some({ name: text(80) }, ['name']),
  'PATCH /api/projects/{projectId}/agents/{agentId}': optional({ name: text(80), color: str, emoji: nullable(str) }),
  'POST /api/projects/{projectId}/properties': some(
    { name: text(40), type: str, options: { type: 'array', maxItems: 40, items: anyJson }, config: { type: 'object' } },
    ['name', 'type'],
  ),
  'PATCH /api/properties/{propertyId}': optional({ name: text(40), afterId: nullable(uuid), config: { type: 'object' } }),
  'POST /api/properties/{propertyId}/options': some({ name: text(40), color: str, afterId: nullable(uuid) }, ['name']),
  'PATCH /api/options/{optionId}': optional({ name: text(40), color: str, afterId: nullable(uuid) }),
  'POST /api/options/{optionId}/ship': some({ rest: words('next', 'leave', 'clear'), strays: bool }, ['rest']),
  'POST /api/projects/{projectId}/tasks': some(
    { title: text(400), description: text(20000), values: { type: 'object' }, afterId: nullable(uuid), atTop: bool },
    ['title'],
  ),
  'POST /api/projects/{projectId}/tasks/values': some(
    { taskIds: { type: 'array', maxItems: 200, items: uuid }, propertyId: uuid, value: anyJson, change: words('add', 'remove') },
    ['taskIds', 'propertyId'],
  ),
  'POST /api/projects/{projectId}/archive': optional({ taskIds: { type: 'array', maxItems: 200, items: uuid }, propertyId: uuid, value: anyJson }),
  'PATCH /api/tasks/{taskId}': optional({ title: text(400), description: text(20000), baseTitle: nullable(str), baseDescription: nullable(str) }),
  'PUT /api/tasks/{taskId}/values/{propertyId}': optional({ value: anyJson }),
  'POST /api/tasks/{taskId}/move': optional({ beforeId: nullable(uuid), afterId: nullable(uuid), values: { type: 'object' } }),
  'POST /api/tasks/{taskId}/blockers': some({ blockerId: uuid }, ['blockerId']),
  'PUT /api/tasks/{taskId}/parent': some({ parentId: uuid }, ['parentId']),
  'PATCH /api/runs/{runId}': optional({
    beat: bool,
    goal: nullable(text(200)),
    step: nullable(text(200)),
    steps: nullable({ type: 'array', maxItems: 50, items: text(200) }),
    stepIndex: nullable({ type: 'integer', minimum: 0 }),
    log: text(400),
    status: words('running', 'paused', 'waiting', 'handed_over', 'done', 'failed', 'stopped', 'lost'),
    reportFor: nullable({ type: 'number', exclusiveMinimum: 0, maximum: 60 }),
  }),
  'POST /api/projects/{projectId}/presence': optional({ clientId: str, taskId: nullable(uuid), field: nullable(str) }),
  'POST /api/projects/{projectId}/webhooks': some({ url: str, kinds: arrayOf(str), enabled: bool }, ['url']),
  'PATCH /api/projects/{projectId}/webhooks/{webhookId}': optional({ url: str, kinds: arrayOf(str), enabled: bool, roll: bool }),
  'POST /api/projects/{projectId}/views': some({ name: str, kind: words('board', 'list', 'roadmap'), groupById: nullable(uuid) }, ['name']),
  'PATCH /api/views/{viewId}': optional({ name: str, kind: words('board', 'list', 'roadmap'), groupById: nullable(uuid), filters: ref('Rules'), sort: ref('Sort') }),
  'PUT /api/views/{viewId}/lens': some({ filters: ref('Rules'), sort: ref('Sort') }, ['filters']),
  'PATCH /api/projects/{projectId}/card-view': some({ rows: { type: 'object' } }, ['rows']),
  'PATCH /api/views/{viewId}/card-view': optional({ rows: nullable({ type: 'object' }) }),
  'PATCH /api/comments/{commentId}': some({ body: text(8000), baseBody: nullable(str) }, ['body']),
  'POST /api/projects/{projectId}/import/preview': { type: 'object', description: 'A board export of a third-party tool.' },
  'POST /api/projects/{projectId}/import': { type: 'object', description: 'A board export of a third-party tool, and what to import.' },
  'POST /api/tasks/{taskId}/attachments': some({ name: text(200), mime: str, size: { type: 'integer' } }, ['name']),
  'POST /api/lists': some({ name: str }, ['name']),
  'PATCH /api/lists/{listId}': optional({ name: str }),
  'PATCH /api/charts/{chartId}': optional({ name: text(100), projectIds: { type: 'array', items: uuid, minItems: 1, maxItems: 20 }, propertyId: nullable(uuid) }),
};
