import type { DynamicModule, Type } from '@nestjs/common';
import { SERVICE_VERSION } from '../system/version';
import { ANSWERS, BOARD_SCHEMA, type Answer } from './answers';
import { dtoFields, dtoSchema, type JsonSchema } from './dto-schema';
import { FALLBACK_BODIES } from './request-bodies';
import { controllersOf, routesOf, type RouteInfo } from './routes';
import { COMMON_SCHEMAS, obj, ref, str } from './schemas/common';
import { OTHER_SCHEMAS } from './schemas/others';
import { PEOPLE_SCHEMAS } from './schemas/people';
import { PROPERTY_SCHEMAS } from './schemas/properties';
import { RUN_SCHEMAS } from './schemas/runs';
import { TASK_SCHEMAS } from './schemas/tasks';
import { gateDoc, SECURITY_SCHEMES } from './security';
import { SUMMARIES } from './summaries';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };
export interface Operation {
  operationId: string;
  responses: Record<string, { description?: string; content?: Record<string, { schema: JsonSchema }>; $ref?: string }>;
  [key: string]: unknown;
}

/** Where the document itself is served (outside Nest, public). */
export const DOCUMENT_PATH = '/api/openapi.json';

const ERROR_WORDS: Record<number, string> = {
  400: 'The request is wrong: the message names the field (a path id that is not a UUID, a body that is not JSON, a refused value).',
  401: '`Sign in first, or send an agent token.` / `That token is not valid any more.` — on any write, also a body over 64 KB without a valid credential (refused before it is read).',
  403: 'A gate refused the caller (the sentence of the gate, see the description).',
  404: 'Not there, or not yours (a project reached by a non-member: `Project not found.`).',
  409: 'A conflict with a rule (a duplicate name, a closed run, a circle, …).',
  422: 'The uploaded file is not what its upload said (an image that does not read as its type).',
  413: 'The body is larger than the route reads.',
  408: '`The request took too long to arrive.`: the body did not arrive within 30 seconds of the headers; the connection is closed.',
  429: '`Too many tries. Wait N minutes and try again.` (or, adding members, `You have sent too many invites today.`) with `Retry-After` in seconds; on a heavy read (charts, usage, search, import), `Too many requests at once. Wait for the others to finish.` with `Retry-After: 1` while the caller has 2 under way.',
  500: '`Something went wrong on our side. Try again in a moment.`',
  503: 'The service is stopping, or the database or a needed store is out of reach; or `The server is busy. Try again in a moment.` with `Retry-After: 5` when no database connection came free within 5 seconds or a statement ran past its limit (15 seconds on heavy reads, 5 on the others).',
};

const WRITES = ['post', 'put', 'patch', 'delete'];

/** What a route declared `@HeavyRead` adds to its description (decisions.md › Fair use). */
const HEAVY_WORDS =
  '**Heavy read**: at most 2 at once per person (per agent for tokens), on every instance together; a third answers 429 `Too many requests at once. Wait for the others to finish.` with `Retry-After: 1`. Its statements may run 15 seconds (503 with `Retry-After: 5` past that).';

/** Every component schema, by feature (apps/api/src/openapi/schemas). */
export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  ...COMMON_SCHEMAS,
  ...PEOPLE_SCHEMAS,
  ...TASK_SCHEMAS,
  ...RUN_SCHEMAS,
  ...PROPERTY_SCHEMAS,
  ...OTHER_SCHEMAS,
  Board: BOARD_SCHEMA,
};

const keyOf = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

function operation(route: RouteInfo, answer: Answer): Operation {
  const key = keyOf(route);
  const gate = gateDoc(route.access, route.method);
  const bodySchema = route.body ? dtoSchema(route.body) : FALLBACK_BODIES[key];
  const statuses = new Set<number>(gate.statuses);
  if (route.pathParams.length > 0 || bodySchema || route.query) statuses.add(400);
  // A path names something: a real id that names nothing the caller may see is 404.
  if (route.pathParams.length > 0) statuses.add(404);
  // Any write: a body too large for the route, a body over 64 KB without a valid credential (even
  // on a public route), a body that does not arrive in time (decisions › Fair use).
  if (WRITES.includes(route.method)) for (const status of [413, 401, 408]) statuses.add(status);
  if (answer.conflict) statuses.add(409);
  if (answer.throttled || route.heavy) statuses.add(429);
  for (const status of answer.errors ?? []) statuses.add(status);
  // Any route: an unexpected failure (500, the contract's envelope) or a stopping service (503).
  statuses.add(500);
  statuses.add(503);

  const success = answer.status ?? route.status;
  const responses: Operation['responses'] = {
    [success]: {
      description: answer.description ?? 'Success.',
      ...(answer.schema ? { content: { [answer.mediaType ?? 'application/json']: { schema: answer.schema } } } : {}),
    },
  };
  for (const [status, other] of Object.entries(answer.alsoSuccess ?? {})) responses[Number(status)] = { description: other.description, content: json(other.schema) };
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const own = answer.failures?.[status] ?? (status === 409 && answer.conflict === 'edit' ? { anyOf: [ref('EditClash'), ref('Error')] } : undefined);
    responses[status] = own ? { description: ERROR_WORDS[status], content: json(own) } : { $ref: `#/components/responses/Error${status}` };
  }
  const parameters = [
    ...route.pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: name === 'email' ? str : { type: 'string', format: 'uuid' },
    })),
    ...(route.query ? dtoFields(route.query).map((f) => ({ name: f.name, in: 'query', required: f.required, schema: f.schema })) : []),
    ...route.queryNames.map((name) => ({ name, in: 'query', required: false, schema: str })),
    { name: 'x-service-client', in: 'header', required: false, schema: str, description: 'Tags a write so its own client can skip the echo on the stream.' },
  ];
  return {
    operationId: `${route.controller.replace(/Controller$/, '')}_${route.handler}`,
    tags: [route.controller.replace(/Controller$/, '')],
    // Words for people; a route without them shows its method and path (and fails the contract test).
    summary: SUMMARIES[key] ?? key,
    description: [answer.description, gate.description, route.heavy ? HEAVY_WORDS : undefined].filter(Boolean).join('\n\n'),
    security: gate.security,
    parameters,
    ...(bodySchema ? { requestBody: { required: WRITES.includes(route.method) && route.method !== 'delete', content: json(bodySchema) } } : {}),
    responses,
  };
}

/** The routes of the service as the document lists them: the controllers' plus the document's own. */
export function documentedRoutes(controllers: Type<unknown>[]): RouteInfo[] {
  return [
    ...routesOf(controllers),
    {
      method: 'get',
      path: DOCUMENT_PATH,
      fastifyPath: DOCUMENT_PATH,
      pathParams: [],
      queryNames: [],
      access: { gate: 'public' },
      status: 200,
      controller: 'ApiDocument',
      handler: 'read',
    },
  ];
}

ANSWERS[`GET ${DOCUMENT_PATH}`] = { schema: { type: 'object', description: 'This OpenAPI 3.1 document.' } };

const UNDESCRIBED = 'Answer not described yet: add it to apps/api/src/openapi/answers.ts.';

/** Routes of the module tree without a summary in summaries.ts (must be none). */
export const routesWithoutSummary = (root: DynamicModule | Type<unknown>): string[] =>
  documentedRoutes(controllersOf(root)).map(keyOf).filter((key) => !SUMMARIES[key]);

/** Routes of the module tree that answers.ts does not describe (must be none). */
export const routesWithoutAnswer = (root: DynamicModule | Type<unknown>): string[] =>
  documentedRoutes(controllersOf(root)).map(keyOf).filter((key) => !ANSWERS[key]);

/** The OpenAPI 3.1 document of the service, built from its controllers, access rules and DTOs. */
export function buildOpenApiDocument(root: DynamicModule | Type<unknown>): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of documentedRoutes(controllersOf(root))) {
    // A route without an entry in answers.ts is still listed (the service must start), with no
    // answer schema; test/contract/openapi.test.ts fails on it (`routesWithoutAnswer`).
    const answer = ANSWERS[keyOf(route)] ?? { description: UNDESCRIBED };
    (paths[route.path] ??= {})[route.method] = operation(route, answer);
  }
  return {
    openapi: '3.1.0',
    // No `jsonSchemaDialect`: OpenAPI 3.1's default dialect is JSON Schema 2020-12 already, and
    // Swagger UI heads the page with a red warning for any other value than that default's URI.
    info: {
      title: 'Task board service',
      version: SERVICE_VERSION,
      description:
        'The task board as JSON over HTTP under `/api`. People sign in with email and password (a session cookie, from `POST /api/auth/login`); an agent calls with the bearer token (`svc_…`) its project\'s owner or an admin made for it. A success answers the resource itself, with no envelope; every failure answers `{ "error": "<a sentence for a person>" }` with a fitting status. Changes are announced on each project\'s server-sent-event stream and to its webhooks, so clients re-read what they show.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: COMPONENT_SCHEMAS,
      // The `{ error }` envelope at each status, shared by every route that can answer it.
      responses: Object.fromEntries(Object.entries(ERROR_WORDS).map(([status, description]) => [`Error${status}`, { description, content: json(ref('Error')) }])),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

export { obj };
