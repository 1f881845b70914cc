import type { JsonSchema } from './dto-schema';
import { anyJson, arrayOf, bool, int, mapOf, nullable, obj, rank, ref, str, timestamp, uuid, words } from './schemas/common';

/** The success answer of a route: its status's JSON body, or another media type (the stream). */
export interface Answer {
  schema?: JsonSchema;
  /** Default application/json. */
  mediaType?: string;
  /** When the route answers another status than its declared one (a redirect). */
  status?: number;
  description?: string;
  /** 409 refusals the route itself raises (a clash, a duplicate, a closed run…). */
  conflict?: boolean | 'edit';
  /** Routes of the auth family throttle failed tries. */
  throttled?: boolean;
  /** Other refusal statuses the route itself answers. */
  errors?: number[];
  /** A failure answered with another body than the `{ error }` envelope (health). */
  failures?: Record<number, JsonSchema>;
  /** Another success status the route answers, with its own body (runs/next: 200 when nothing is eligible). */
  alsoSuccess?: Record<number, { description: string; schema: JsonSchema }>;
}

const ok = ref('Ok');
const wrap = (key: string, schema: JsonSchema, more: Record<string, JsonSchema> = {}): JsonSchema => obj({ [key]: schema, ...more });
const board = ref('Board');
/** The board read (interface.md › Board reads). */
const boardFields: Record<string, JsonSchema> = {
  project: ref('Project'),
  invites: arrayOf(ref('Invite')),
  members: arrayOf(ref('Member')),
  properties: arrayOf(ref('Property')),
  views: arrayOf(ref('View')),
  cardView: ref('CardView'),
  tasks: arrayOf(ref('TaskItem')),
  archived: arrayOf(ref('ArchivedTask')),
  runs: arrayOf(ref('Run')),
};
export const BOARD_SCHEMA: JsonSchema = obj(boardFields);

/**
 * Every route's success answer, written once from interface.md and decisions.md. The key is
 * `METHOD /api/path` as the document names it; a route missing here fails the document build.
 */
export const ANSWERS: Record<string, Answer> = {
  'GET /api/version': { schema: obj({ version: str, api: int }) },
  'GET /api/health': {
    schema: obj({ ok: { const: true } }),
    failures: { 503: obj({ ok: { const: false } }, [], 'The database is out of reach.') },
  },
  'GET /api/metrics': {
    mediaType: 'text/plain',
    schema: {
      type: 'string',
      description:
        "Prometheus's text format (`text/plain; version=0.0.4; charset=utf-8`) of this instance: requests by route pattern and status with latency histograms, database pools, open streams, notices heard, the webhook outbox, leased jobs and sweeps, and Node's process metrics (docs/operating.md › Metrics).",
    },
  },
  'POST /api/auth/register': { schema: wrap('user', ref('User')), conflict: true, throttled: true, errors: [403], description: 'Signed up and signed in (sets the session cookie).' },
  'POST /api/auth/login': {
    schema: wrap('user', ref('User')),
    throttled: true,
    errors: [401],
    failures: { 401: obj({ error: str, needsCode: { const: true } }, ['needsCode'], 'Refused: a wrong pair or code; with `needsCode` when two-step sign-in is on and no `code` was sent.') },
    description: 'Signed in (sets the session cookie). With two-step sign-in on, `code` (six digits, or a recovery code once) is needed too.',
  },
  'GET /api/auth/config': {
    schema: obj({
      signup: words('open', 'invite', 'closed'),
      oidc: nullable(obj({ name: str }, [], 'Single sign-on is on: the button\'s label.')),
      mail: bool,
    }),
    description: 'What a sign-in screen offers: who may sign up, the single sign-on button (null when it is off), and whether a reset link can be mailed.',
  },
  'GET /api/auth/oidc': {
    status: 302,
    description:
      'A redirect to the OpenID provider (authorisation code with PKCE, `state` and `nonce`), setting a short-lived cookie that carries this sign-in\'s checks. A refusal (single sign-on is off, the provider cannot be reached) redirects to `/?signin_error=<sentence>`.',
  },
  'GET /api/auth/oidc/callback': {
    status: 302,
    description:
      'Where the provider sends the browser back. With the state, the code exchange and the ID token checked, signs in the account linked to that identity, else the account of the email the provider verified (linking it), else a new account under the sign-up rules (invites honoured); then redirects to `/` with the session cookie. A refusal redirects to `/?signin_error=<sentence>`.',
  },
  'POST /api/auth/totp/setup': { schema: obj({ secret: str, otpauthUrl: str }), conflict: true, description: 'A new secret (base32, SHA-1, 6 digits, 30 s) and its otpauth URL; not on until `enable`. Again replaces a pending one.' },
  'POST /api/auth/totp/enable': { schema: obj({ recoveryCodes: arrayOf(str) }), conflict: true, description: 'On; the ten recovery codes are shown this once.' },
  'POST /api/auth/totp/disable': { schema: ok, errors: [403], description: 'Off (with the password in use and a code or a recovery code).' },
  'POST /api/auth/logout': { schema: ok },
  'POST /api/auth/reset': { schema: ok, throttled: true },
  'POST /api/auth/forgot': { schema: obj({ ok: { const: true }, message: str }), throttled: true, errors: [404] },
  'GET /api/auth/me': { schema: wrap('user', ref('User')) },
  'PATCH /api/auth/me': { schema: wrap('user', ref('User')) },
  'POST /api/auth/password': { schema: ok, errors: [403], description: 'Changes the password and signs every other session out. An account made by single sign-on sets its first password with `next` alone.' },
  'GET /api/auth/me/security': {
    schema: obj({
      events: arrayOf(obj({
        at: timestamp,
        kind: words('signed_in', 'sign_in_failed', 'signed_out', 'password_changed', 'password_reset', 'totp_on', 'totp_off', 'recovery_code_used', 'sessions_ended', 'oidc_linked'),
        ip: str,
        userAgent: str,
      })),
    }),
    description: "The person's last 100 security events, newest first; `userAgent` is cut to 200 characters.",
  },
  'GET /api/auth/sessions': { schema: obj({ others: int }) },
  'DELETE /api/auth/sessions': { schema: ok },

  'GET /api/projects': { schema: wrap('projects', arrayOf(ref('ProjectListed'))) },
  'POST /api/projects': { schema: wrap('project', ref('Project')), conflict: true },
  'PATCH /api/projects/{projectId}': { schema: wrap('project', ref('Project')), conflict: true },
  'DELETE /api/projects/{projectId}': { schema: ok },
  'POST /api/projects/{projectId}/hand-over': { schema: ok },
  'PUT /api/projects/{projectId}/position': { schema: ok },
  'GET /api/projects/{projectId}/export': {
    schema: obj(
      {
        format: { const: 'task-board-export' },
        version: { const: 1 },
        exportedAt: timestamp,
        project: obj({ id: uuid, name: str, key: str, doneWhen: anyJson, releases: bool, sprints: bool, dailyBudgetMicros: nullable(str), createdAt: timestamp, members: arrayOf(obj({ id: uuid, kind: str, name: str, email: nullable(str), role: str, color: nullable(str), emoji: nullable(str) })) }),
        properties: arrayOf(obj({ id: uuid, name: str, type: str, position: rank, config: anyJson, options: arrayOf(anyJson) })),
        views: arrayOf(obj({ id: uuid, name: str, kind: str, groupById: nullable(uuid), position: rank, isDefault: bool, filters: anyJson, sort: anyJson, cardView: anyJson })),
        cardView: anyJson,
        rules: obj({ text: nullable(str), updatedAt: nullable(timestamp) }),
        tasks: arrayOf(
          obj({
            id: uuid, number: int, title: str, description: str, position: rank, values: mapOf(anyJson), parentId: nullable(uuid), createdBy: nullable(uuid),
            createdAt: timestamp, updatedAt: timestamp, archivedAt: nullable(timestamp), deletedAt: nullable(timestamp),
            blockers: arrayOf(uuid), checklist: arrayOf(anyJson), comments: arrayOf(anyJson), shipped: arrayOf(anyJson), sources: arrayOf(str),
          }),
        ),
        runs: arrayOf(anyJson),
        activity: arrayOf(obj({ id: uuid, taskId: nullable(uuid), actorId: nullable(uuid), kind: str, data: anyJson, createdAt: timestamp })),
        attachments: arrayOf(anyJson),
      },
      [],
      'The whole project (owner and admins): every live, archived and deleted task with its checklist, comments (authors by name and email), blockers and parent; every run; every feed line; attachment metadata (no bytes). No secret of any kind. Counts in micros and tokens are decimal strings (64-bit).',
    ),
  },
  'GET /api/projects/{projectId}/rules': { schema: wrap('rules', ref('AgentRules')) },
  'PUT /api/projects/{projectId}/rules': { schema: wrap('rules', ref('AgentRules')) },
  'GET /api/agent/me': { schema: ref('AgentMe') },
  'POST /api/projects/{projectId}/members': {
    schema: { type: 'object', properties: { member: ref('Member'), invite: ref('InviteAdded') }, minProperties: 1 },
    conflict: true,
    errors: [429],
    description:
      'The member added (`member`), or the invite kept for an address without an account (`invite`), saying whether the invite mail was ' +
      'accepted by the mail server (`mailed`) and the sign-up link to hand over when it was not (`signupUrl`, null without SERVICE_URL). ' +
      'An address gets one invite mail per project in 24 hours; a person sends at most 50 in 24 hours, then an unknown email is ' +
      '429 `You have sent too many invites today.` with `Retry-After`.',
  },
  'PATCH /api/projects/{projectId}/members/{userId}': { schema: wrap('member', ref('Member')) },
  'DELETE /api/projects/{projectId}/members/{userId}': { schema: ok },
  'DELETE /api/projects/{projectId}/invites/{email}': { schema: ok },
  'POST /api/projects/{projectId}/members/{userId}/reset': {
    schema: obj({ token: str, url: nullable(str), expiresAt: timestamp }),
    description: 'A one-time reset token (`svcr_…`, 24 hours); `url` when the server knows its address.',
  },
  'POST /api/projects/{projectId}/agents': { schema: obj({ agent: ref('Member'), token: str }), description: 'The agent and its first token, shown once.' },
  'PATCH /api/projects/{projectId}/agents/{agentId}': { schema: wrap('agent', ref('Member')) },
  'DELETE /api/projects/{projectId}/agents/{agentId}': { schema: ok },
  'GET /api/projects/{projectId}/tokens': { schema: wrap('tokens', arrayOf(ref('Token'))) },
  'POST /api/projects/{projectId}/agents/{agentId}/tokens': { schema: obj({ id: uuid, token: str }), description: 'The plain token (`svc_…`), shown once.' },
  'DELETE /api/projects/{projectId}/tokens/{tokenId}': { schema: ok },

  'POST /api/projects/{projectId}/properties': { schema: wrap('property', ref('Property')), conflict: true },
  'PATCH /api/properties/{propertyId}': { schema: ok, conflict: true },
  'DELETE /api/properties/{propertyId}': { schema: ok },
  'GET /api/properties/{propertyId}/count': { schema: obj({ values: int }, [], 'Tasks that hold a value of the property.') },
  'POST /api/properties/{propertyId}/options': { schema: wrap('option', ref('Option')), conflict: true },
  'PATCH /api/options/{optionId}': { schema: wrap('option', ref('Option')), conflict: true },
  'DELETE /api/options/{optionId}': { schema: ok },
  'GET /api/options/{optionId}/count': { schema: ref('Count') },
  'POST /api/options/{optionId}/ship': { schema: obj({ archived: int, moved: int, rest: str, shippedAt: str, taken: int }), conflict: true },

  'POST /api/projects/{projectId}/tasks': { schema: wrap('task', ref('TaskCreated')) },
  'POST /api/projects/{projectId}/tasks/values': { schema: obj({ set: int, value: anyJson, dropped: ref('Dropped') }) },
  'POST /api/projects/{projectId}/archive': { schema: obj({ archived: int }) },
  'GET /api/projects/{projectId}/deleted': { schema: obj({ deleted: arrayOf(ref('DeletedTask')), windowDays: int }) },
  'GET /api/projects/{projectId}/search': { schema: obj({ hits: arrayOf(ref('SearchHit')), total: int }) },
  'GET /api/tasks/{taskId}': { schema: wrap('task', ref('Task')) },
  'PATCH /api/tasks/{taskId}': { schema: ok, conflict: 'edit' },
  'DELETE /api/tasks/{taskId}': { schema: obj({ ok: { const: true }, goesAt: timestamp }) },
  'POST /api/tasks/{taskId}/restore': { schema: ok },
  'POST /api/tasks/{taskId}/archive': { schema: ok },
  'DELETE /api/tasks/{taskId}/archive': { schema: ok },
  'PUT /api/tasks/{taskId}/values/{propertyId}': { schema: obj({ value: anyJson, dropped: ref('Dropped') }) },
  'POST /api/tasks/{taskId}/move': { schema: obj({ position: rank, dropped: ref('Dropped') }) },
  'POST /api/tasks/{taskId}/blockers': { schema: ok, conflict: true },
  'DELETE /api/tasks/{taskId}/blockers/{blockerId}': { schema: ok },
  'PUT /api/tasks/{taskId}/parent': { schema: obj({ ok: { const: true }, left: nullable(str) }), conflict: true },
  'DELETE /api/tasks/{taskId}/parent': { schema: ok },
  'GET /api/projects/{projectId}/board': { schema: board, description: 'The whole board; may close runs whose lease ran out.' },
  'GET /api/projects/{projectId}/changelog': { schema: wrap('changelog', arrayOf(ref('ChangelogEntry'))) },
  'GET /api/projects/{projectId}/settings': { schema: obj({ ...boardFields, taskCount: int }), description: 'The board with only the three tasks the card preview draws.' },

  'POST /api/tasks/{taskId}/run': { schema: wrap('run', ref('Run')), conflict: true },
  'PATCH /api/runs/{runId}': { schema: wrap('run', ref('Run'), { control: nullable(ref('ControlWord')) }), conflict: true, description: 'The run as it stands; its `control` is the word a person asked for, if any.' },
  'POST /api/runs/{runId}/control': { schema: wrap('run', ref('Run')), conflict: true },
  'GET /api/runs/{runId}': { schema: wrap('run', ref('Run')) },
  'POST /api/runs/{runId}/answer': {
    schema: wrap('run', ref('Run')),
    conflict: true,
    description: "The run with its question answered; the agent reads the answer and `control: resume` on its next report, beat or read.",
  },
  'POST /api/projects/{projectId}/runs/next': {
    schema: obj({ run: ref('Run'), task: ref('Task') }),
    status: 201,
    conflict: true,
    description: 'The first eligible task, claimed as a claim of it would be, with the task as a task read shows it.',
    alsoSuccess: { 200: { description: 'Nothing is eligible: no task was claimed.', schema: obj({ run: { type: 'null' }, task: { type: 'null' } }) } },
  },
  'GET /api/projects/{projectId}/usage': {
    schema: ref('Usage'),
    description: "Tokens and cost of the project's agents per agent and per UTC day, highest cost first.",
  },
  'GET /api/tasks/{taskId}/runs': { schema: obj({ runs: arrayOf(ref('PastRun')), more: bool }), description: 'Twenty closed runs before `?before=`; `more` says whether older ones remain.' },
  'GET /api/projects/{projectId}/stream': {
    mediaType: 'text/event-stream',
    schema: { type: 'string', description: '`retry: 3000`, `event: ready`, then `event: change` / `event: presence` lines and a `: ping` comment every 25 seconds.' },
  },
  'POST /api/projects/{projectId}/presence': { schema: ok },
  'GET /api/projects/{projectId}/activity': {
    schema: obj({ activity: arrayOf(ref('FeedEntry')), next: nullable(obj({ after: timestamp, afterId: uuid })) }),
    description: 'A page of the feed after the cursor; `next` is the cursor of the following page, null at the end.',
  },

  'GET /api/projects/{projectId}/webhooks': { schema: wrap('webhooks', arrayOf(ref('Webhook'))) },
  'POST /api/projects/{projectId}/webhooks': { schema: obj({ webhook: ref('Webhook'), secret: str }), description: 'The webhook and its secret (`svcs_…`), shown once.' },
  'PATCH /api/projects/{projectId}/webhooks/{webhookId}': {
    schema: obj({ webhook: ref('Webhook'), secret: str }, ['secret']),
    description: 'The webhook; `secret` only when rolled (`{ roll: true }`), shown once.',
  },
  'POST /api/projects/{projectId}/webhooks/{webhookId}': { schema: wrap('delivery', ref('Delivery')), description: 'A test delivery was queued.' },
  'DELETE /api/projects/{projectId}/webhooks/{webhookId}': { schema: ok },
  'GET /api/projects/{projectId}/webhooks/{webhookId}/count': { schema: obj({ deliveries: int }) },
  'GET /api/projects/{projectId}/webhooks/{webhookId}/deliveries': { schema: wrap('deliveries', arrayOf(ref('Delivery'))) },

  'POST /api/projects/{projectId}/views': { schema: wrap('view', ref('View')) },
  'PATCH /api/views/{viewId}': { schema: wrap('view', ref('View')) },
  'DELETE /api/views/{viewId}': { schema: ok },
  'PUT /api/views/{viewId}/lens': { schema: wrap('view', ref('View')), conflict: true },
  'POST /api/views/{viewId}/lens/promote': { schema: wrap('view', ref('View')), conflict: true },
  'GET /api/views/{viewId}/export.csv': {
    mediaType: 'text/csv',
    schema: {
      type: 'string',
      description:
        "`text/csv; charset=utf-8`, RFC 4180: `Key`, `Title`, the properties' names in display order, `Created`, `Updated`; one row per live task the view's shared filters pass, in its sort (never a lens). Names joined by `; `, checkboxes `true`/`false`, dates `YYYY-MM-DD`, timestamps ISO 8601 UTC; a text cell starting with `=`, `+`, `-` or `@` gets a leading `'`.",
    },
  },
  'GET /api/views/{viewId}/tasks': {
    schema: obj({ tasks: arrayOf(ref('TaskItem')), total: int, next: nullable(str) }),
    description: 'A page of the view\'s tasks in its order; `next` continues.',
  },
  'PATCH /api/projects/{projectId}/card-view': { schema: wrap('cardView', ref('CardView')) },
  'PATCH /api/views/{viewId}/card-view': { schema: wrap('cardView', nullable(ref('CardView'))) },

  'POST /api/tasks/{taskId}/checklist': { schema: wrap('item', ref('ChecklistItem')) },
  'PATCH /api/checklist/{itemId}': {
    schema: { anyOf: [wrap('item', ref('ChecklistItem')), ref('Ok')] },
    conflict: 'edit',
    description: 'The item as saved; `{ ok: true }` for a patch that names nothing to change. A text clash is 409 `{ error, current }`.',
  },
  'DELETE /api/checklist/{itemId}': { schema: ok },
  'POST /api/tasks/{taskId}/comments': { schema: wrap('comment', ref('Comment')) },
  'PATCH /api/comments/{commentId}': { schema: wrap('comment', ref('Comment')), conflict: 'edit' },
  'DELETE /api/comments/{commentId}': { schema: ok },

  'POST /api/projects/{projectId}/import/preview': { schema: wrap('preview', ref('ImportPreview')), conflict: true },
  'POST /api/projects/{projectId}/import': { schema: obj({ imported: int, skipped: arrayOf(ref('ImportSkip')) }), conflict: true },

  'GET /api/tasks/{taskId}/attachments': { schema: wrap('attachments', arrayOf(ref('Attachment'))) },
  'POST /api/tasks/{taskId}/attachments': {
    schema: obj({ id: uuid, uploadUrl: str, headers: mapOf(str) }),
    description: 'A pending upload: PUT the bytes to `uploadUrl` with `headers` within 10 minutes, then confirm it.',
  },
  'POST /api/attachments/{attachmentId}/ready': { schema: wrap('attachment', ref('Attachment')), conflict: true, errors: [422] },
  'GET /api/attachments/{attachmentId}': { status: 302, description: 'A redirect to a signed URL of the bucket (5 minutes).' },
  'DELETE /api/attachments/{attachmentId}': { schema: ok },

  'GET /api/lists': { schema: wrap('lists', arrayOf(ref('List'))) },
  'POST /api/lists': { schema: wrap('list', ref('List')), conflict: true },
  'GET /api/lists/{listId}': { schema: obj({ list: ref('List'), tasks: arrayOf(ref('ListTask')) }) },
  'PATCH /api/lists/{listId}': { schema: wrap('list', ref('List')), conflict: true },
  'DELETE /api/lists/{listId}': { schema: ok },
  'PUT /api/lists/{listId}/tasks/{taskId}': { schema: ok },
  'DELETE /api/lists/{listId}/tasks/{taskId}': { schema: ok },
  'GET /api/search': {
    schema: obj({ hits: arrayOf(ref('TaskSearchHit')), total: int }),
    errors: [400, 403, 404],
    description: 'Key match first, then title matches, then the rest, each by how well it matches, then newest change first. A `projectId` the caller is not in: 404 `Project not found.`; an agent token naming another project: 403 `That token belongs to another project.`',
  },
  'GET /api/notifications': {
    schema: obj({ notifications: arrayOf(ref('Notification')), unread: int, more: bool }),
    description: 'Your notifications, newest first, 50 a page after `?before=`; those of projects you left and of deleted tasks are not shown, and `unread` counts the shown unread ones.',
  },
  'POST /api/notifications/read': {
    schema: obj({ unread: int }),
    description: '`{ ids }` (at most 200; ids not yours are ignored) or `{ all: true }`; answers the unread count after.',
  },
  'GET /api/notifications/stream': {
    mediaType: 'text/event-stream',
    schema: { type: 'string', description: '`retry: 3000`, `event: ready`, then `event: notification` lines with `{ id, kind, projectId, taskId }` and a `: ping` comment every 25 seconds; it ends when the session ends.' },
  },
  'GET /api/charts': { schema: wrap('charts', arrayOf(ref('Chart'))) },
  'POST /api/charts': { schema: wrap('chart', ref('Chart')), errors: [404], description: 'A chart over a project the caller belongs to (404 `Project not found.` otherwise).' },
  'PATCH /api/charts/{chartId}': { schema: wrap('chart', ref('Chart')) },
  'DELETE /api/charts/{chartId}': { schema: ok },
  'GET /api/charts/{chartId}/data': { schema: ref('ChartData') },
};
export { bool, str, uuid };
