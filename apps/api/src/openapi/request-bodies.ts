import type { JsonSchema } from './dto-schema';
import { arrayOf, bool, nullable, obj, str, uuid, words } from './schemas/common';

const text = (maxLength?: number): JsonSchema => ({ type: 'string', ...(maxLength ? { maxLength } : {}) });
/** A request body: its listed fields; others are ignored by the service, so the schema allows them. */
const open = ({ additionalProperties: _closed, ...schema }: JsonSchema): JsonSchema => schema;
const optional = (properties: Record<string, JsonSchema>) => open(obj(properties, Object.keys(properties)));
const some = (properties: Record<string, JsonSchema>, required: string[]) => open(obj(properties, Object.keys(properties).filter((k) => !required.includes(k))));

/**
 * Request bodies of the routes that read no DTO class yet, written from the contract. A route that
 * gains a DTO (`@Body() body: XBody`) is documented from the DTO instead, and its entry here must go
 * (the document test fails on a fallback a DTO shadows).
 */
export const FALLBACK_BODIES: Record<string, JsonSchema> = {
  'POST /api/auth/register': some({ email: text(200), name: text(80), password: { type: 'string', minLength: 8 } }, ['email', 'name', 'password']),
  'POST /api/auth/login': some({ email: str, password: str }, ['email', 'password']),
  'POST /api/auth/reset': some({ token: { type: 'string', description: 'svcr_…' }, password: { type: 'string', minLength: 8 } }, ['token', 'password']),
  'POST /api/auth/forgot': some({ email: text(200) }, ['email']),
  'PATCH /api/projects/{projectId}/members/{userId}': some({ role: words('member', 'admin') }, ['role']),
  'PATCH /api/projects/{projectId}/agents/{agentId}': optional({ name: text(80), color: str, emoji: nullable(str) }),
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
  'POST /api/projects/{projectId}/webhooks': some({ url: str, kinds: arrayOf(str), enabled: bool }, ['url']),
  'PATCH /api/projects/{projectId}/webhooks/{webhookId}': optional({ url: str, kinds: arrayOf(str), enabled: bool, roll: bool }),
  'PATCH /api/comments/{commentId}': some({ body: text(8000), baseBody: nullable(str) }, ['body']),
  'POST /api/projects/{projectId}/import/preview': { type: 'object', description: 'A board export of a third-party tool.' },
  'POST /api/projects/{projectId}/import': { type: 'object', description: 'A board export of a third-party tool, and what to import.' },
  'PATCH /api/lists/{listId}': optional({ name: str }),
  'PATCH /api/charts/{chartId}': optional({ name: text(100), projectIds: { type: 'array', items: uuid, minItems: 1, maxItems: 20 }, propertyId: nullable(uuid) }),
};
