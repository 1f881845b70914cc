// Writes openapi.draft.json: a hand-drafted OpenAPI 3.1 document of the routes the client, the agent
// CLI and the MCP server use, with the contract's shapes (interface.md, decisions.md). It only exists
// so that src/schema.d.ts is openapi-typescript's real output until the service's generated document
// lands (`npm run client:types` then regenerates schema.d.ts from GET /api/openapi.json; delete this folder).
// Run: node libs/client/draft/make-draft.js && npx openapi-typescript libs/client/draft/openapi.draft.json -o libs/client/src/schema.d.ts
const fs = require('node:fs');
const path = require('node:path');

const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const uuid = { type: 'string', format: 'uuid' };
const time = { type: 'string', format: 'date-time' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const nullable = (schema) => ({ oneOf: [schema, { type: 'null' }] });
const obj = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const arr = (items) => ({ type: 'array', items });
const json = (schema) => ({ content: { 'application/json': { schema } } });
const ok = (schema, status = 200) => ({ [status]: { description: 'OK', ...json(schema) } });
const errors = (...statuses) =>
  Object.fromEntries(statuses.map((s) => [s, { description: 'Refused', ...json(ref('Error')) }]));
const pathParam = (name) => ({ name, in: 'path', required: true, schema: uuid });
const body = (schema) => ({ required: true, ...json(schema) });
const op = (summary, { params = [], query = [], requestBody, responses }) => ({
  summary,
  parameters: [...params.map(pathParam), ...query],
  ...(requestBody ? { requestBody } : {}),
  responses,
});

const schemas = {
  Error: obj({ error: str }),
  User: obj({ id: uuid, email: str, name: str, color: str, emoji: nullable(str) }),
  Person: obj({ id: uuid, name: str, color: str, emoji: nullable(str) }),
  Member: obj({ id: uuid, name: str, email: nullable(str), color: str, emoji: nullable(str), role: { type: 'string', enum: ['owner', 'admin', 'member'] }, kind: { type: 'string', enum: ['human', 'agent'] } }),
  DoneWhen: obj({ propertyId: uuid, optionIds: arr(uuid) }),
  Project: obj({ id: uuid, name: str, key: str, ownerId: uuid, role: str, doneWhen: nullable(ref('DoneWhen')), releases: bool, sprints: bool, createdAt: time }),
  Option: obj({ id: uuid, propertyId: uuid, name: str, color: str, position: str }),
  Property: obj({ id: uuid, name: str, type: { type: 'string', enum: ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'] }, position: str, config: { type: 'object', additionalProperties: true }, options: arr(ref('Option')) }, ['id', 'name', 'type', 'position', 'config', 'options']),
  View: obj({ id: uuid, name: str, kind: { type: 'string', enum: ['board', 'list', 'roadmap'] }, groupById: nullable(uuid), position: str, isDefault: bool }, ['id', 'name', 'kind', 'groupById', 'position', 'isDefault']),
  BoardTask: obj({ id: uuid, number: int, key: str, title: str, description: str, position: str, createdAt: time, updatedAt: time, archivedAt: nullable(time), values: { type: 'object', additionalProperties: true }, checklistTotal: int, checklistDone: int, commentCount: int, blockedBy: arr(str), parts: nullable(obj({ done: int, total: int })) }),
  CreatedTask: { allOf: [ref('BoardTask'), obj({ projectId: uuid, createdBy: uuid })] },
  TaskRow: obj({ id: uuid, key: str, title: str, over: bool }),
  ChecklistItem: obj({ id: uuid, taskId: uuid, text: str, done: bool, position: str }),
  Comment: obj({ id: uuid, taskId: uuid, authorId: uuid, body: str, createdAt: time, editedAt: nullable(time), author: nullable(ref('Person')) }),
  ActivityEntry: obj({ id: uuid, kind: str, createdAt: time, data: { type: 'object', additionalProperties: true }, actor: nullable(ref('Person')) }),
  RunStatus: { type: 'string', enum: ['running', 'paused', 'waiting', 'handed_over', 'done', 'failed', 'stopped', 'lost', 'taken_over'] },
  ControlWord: { type: 'string', enum: ['pause', 'resume', 'stop', 'take_over'] },
  RunStep: obj({ text: str, state: { type: 'string', enum: ['done', 'active', 'waiting'] } }),
  LogLine: obj({ at: time, text: str, by: nullable(obj({ id: uuid, name: str })) }),
  Run: obj(
    { id: uuid, taskId: uuid, status: ref('RunStatus'), goal: str, step: str, control: nullable(ref('ControlWord')), startedAt: time, updatedAt: time, reportDueAt: nullable(time), beatAt: time, endedAt: nullable(time), agent: ref('Person'), stepsTotal: int, stepsDone: int, lastLog: str, steps: arr(ref('RunStep')), log: arr(ref('LogLine')) },
    ['id', 'taskId', 'status', 'goal', 'step', 'control', 'startedAt', 'updatedAt', 'reportDueAt', 'beatAt', 'endedAt', 'agent'],
  ),
  PastRun: obj({ id: uuid, goal: str, step: str, status: ref('RunStatus'), startedAt: time, endedAt: nullable(time), agent: ref('Person') }),
  Task: {
    allOf: [
      ref('BoardTask'),
      obj({ links: obj({ blockedBy: arr(ref('TaskRow')), blocks: arr(ref('TaskRow')) }), parent: nullable(ref('TaskRow')), children: arr(ref('TaskRow')), checklist: arr(ref('ChecklistItem')), comments: arr(ref('Comment')), activity: arr(ref('ActivityEntry')), run: nullable(ref('Run')), pastRuns: arr(ref('PastRun')) }),
    ],
  },
  Board: obj({ project: ref('Project'), invites: arr(obj({ email: str, createdAt: time })), members: arr(ref('Member')), properties: arr(ref('Property')), views: arr(ref('View')), cardView: { type: 'object', additionalProperties: true }, tasks: arr(ref('BoardTask')), archived: arr(obj({ id: uuid, number: int, key: str, title: str, description: str, position: str, archivedAt: time })), runs: arr(ref('Run')) }),
  Rules: obj({ text: str, hash: str, updatedAt: nullable(time) }),
  AgentMe: obj({ agent: ref('Person'), project: obj({ id: uuid, name: str, key: str, role: str, waiting: int }) }),
  Webhook: obj({ id: uuid, url: str, kinds: arr(str), enabled: bool, secretPrefix: str, createdAt: time, lastDelivery: nullable(ref('Delivery')) }),
  Delivery: obj({ id: uuid, kind: str, taskKey: nullable(str), status: { type: 'string', enum: ['pending', 'delivered', 'dropped'] }, tries: int, lastCode: nullable(int), lastError: nullable(str), createdAt: time, nextTryAt: nullable(time), deliveredAt: nullable(time) }),
  ChangeEvent: obj({ projectId: uuid, scope: { type: 'string', enum: ['board', 'task', 'project'] }, taskId: uuid, clientId: nullable(str) }, ['projectId', 'scope', 'clientId']),
  PresenceEvent: obj({ projectId: uuid, kind: { type: 'string', const: 'presence' }, clientId: str, userId: uuid, taskId: nullable(uuid), field: nullable(str) }),
  WebhookDelivery: obj({ delivery: uuid, projectId: uuid, projectKey: str, kind: str, taskId: nullable(uuid), taskKey: nullable(str), at: time }),
};

const okTrue = obj({ ok: { type: 'boolean', const: true } });
const runReport = obj({ beat: bool, goal: str, step: str, steps: arr(str), stepIndex: int, log: str, status: ref('RunStatus'), reportFor: { type: 'number' } }, []);

const paths = {
  '/api/health': { get: op('Health', { responses: { ...ok(obj({ ok: bool })), ...errors(503) } }) },
  '/api/version': { get: op('Version', { responses: ok(obj({ version: str, api: int })) }) },
  '/api/auth/login': { post: op('Sign in', { requestBody: body(obj({ email: str, password: str })), responses: { ...ok(obj({ user: ref('User') })), ...errors(400, 401, 403, 429) } }) },
  '/api/auth/register': { post: op('Register', { requestBody: body(obj({ email: str, name: str, password: str })), responses: { ...ok(obj({ user: ref('User') }), 201), ...errors(400, 403, 409, 429) } }) },
  '/api/auth/logout': { post: op('Sign out', { responses: ok(okTrue) }) },
  '/api/auth/me': { get: op('Who am I (person)', { responses: { ...ok(obj({ user: ref('User') })), ...errors(401) } }) },
  '/api/agent/me': { get: op('Who am I (agent)', { responses: { ...ok(ref('AgentMe')), ...errors(401, 403) } }) },
  '/api/projects': {
    get: op('My projects', { responses: { ...ok(obj({ projects: arr({ allOf: [ref('Project'), obj({ taskCount: int })] }) })), ...errors(401, 403) } }),
    post: op('Create a project', { requestBody: body(obj({ name: str, key: str }, ['name'])), responses: { ...ok(obj({ project: ref('Project') }), 201), ...errors(400, 401, 403, 409) } }),
  },
  '/api/projects/{projectId}/board': { get: op('Board', { params: ['projectId'], responses: { ...ok(ref('Board')), ...errors(400, 401, 403, 404) } }) },
  '/api/projects/{projectId}/rules': {
    get: op('Agent rules', { params: ['projectId'], responses: { ...ok(obj({ rules: ref('Rules') })), ...errors(400, 401, 403, 404) } }),
    put: op('Write agent rules', { params: ['projectId'], requestBody: body(obj({ text: str })), responses: { ...ok(obj({ rules: ref('Rules') })), ...errors(400, 401, 403, 404) } }),
  },
  '/api/projects/{projectId}/tasks': {
    post: op('Create a task', { params: ['projectId'], requestBody: body(obj({ title: str, description: str, values: { type: 'object', additionalProperties: true }, afterId: uuid, atTop: bool }, ['title'])), responses: { ...ok(obj({ task: ref('CreatedTask') }), 201), ...errors(400, 401, 403, 404) } }),
  },
  '/api/projects/{projectId}/stream': {
    get: op('Change stream', { params: ['projectId'], responses: { 200: { description: 'Server-sent events: ready, change, presence', content: { 'text/event-stream': { schema: str } } }, ...errors(400, 401, 403, 404) } }),
  },
  '/api/projects/{projectId}/webhooks': {
    get: op('Webhooks', { params: ['projectId'], responses: { ...ok(obj({ webhooks: arr(ref('Webhook')) })), ...errors(400, 401, 403, 404) } }),
    post: op('Make a webhook', { params: ['projectId'], requestBody: body(obj({ url: str, kinds: arr(str), enabled: bool }, ['url'])), responses: { ...ok(obj({ webhook: ref('Webhook'), secret: str }), 201), ...errors(400, 401, 403, 404) } }),
  },
  '/api/tasks/{taskId}': { get: op('Task', { params: ['taskId'], responses: { ...ok(obj({ task: ref('Task') })), ...errors(400, 401, 403, 404) } }) },
  '/api/tasks/{taskId}/comments': {
    post: op('Comment', { params: ['taskId'], requestBody: body(obj({ body: str })), responses: { ...ok(obj({ comment: ref('Comment') }), 201), ...errors(400, 401, 403, 404) } }),
  },
  '/api/tasks/{taskId}/run': {
    post: op('Claim a task (open a run)', { params: ['taskId'], requestBody: body(obj({ goal: str, step: str, steps: arr(str) }, [])), responses: { ...ok(obj({ run: ref('Run') }), 201), ...errors(400, 401, 403, 404, 409) } }),
  },
  '/api/runs/{runId}': {
    get: op('Run', { params: ['runId'], responses: { ...ok(obj({ run: ref('Run') })), ...errors(400, 401, 403, 404) } }),
    patch: op('Report, beat or close a run', { params: ['runId'], requestBody: body(runReport), responses: { ...ok(obj({ run: ref('Run'), control: nullable(ref('ControlWord')) })), ...errors(400, 401, 403, 404, 409) } }),
  },
  '/api/runs/{runId}/control': {
    post: op('Ask a run to pause, resume, stop, or take it over', { params: ['runId'], requestBody: body(obj({ control: ref('ControlWord') })), responses: { ...ok(obj({ run: ref('Run') })), ...errors(400, 401, 403, 404, 409) } }),
  },
};

const doc = { openapi: '3.1.0', info: { title: 'Task board (draft for the client)', version: '1' }, paths, components: { schemas } };
fs.writeFileSync(path.join(__dirname, 'openapi.draft.json'), JSON.stringify(doc, null, 2) + '\n');
