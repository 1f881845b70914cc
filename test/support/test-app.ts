import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { recordAnswer } from './contract-recorder';
import { Clock } from '@board/kernel';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/app-config';
import type { MemberAnswer, ProjectAnswer, UserAnswer } from './answers';
import { createDatabase, serverUrl } from './database';
import { PRIMARY_POSITION_TEXT } from '../../libs/persistence/src/wal-position';
import type { RouteBody } from './routes';

export interface TestApp {
  app: NestFastifyApplication;
  /** e.g. http://127.0.0.1:41234/api */
  api: string;
  /** Direct SQL access to the app's database, for setting up and checking state. */
  sql: Pool;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse another app's database (two instances on one database). */
  databaseUrl?: string;
  /** Listen on this port (an app whose SERVICE_URL must name its own address); a free one when unset. */
  port?: number;
}

/** The real service on a real port, over a database of its own. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const owned = options.databaseUrl ? null : await createDatabase();
  const databaseUrl = options.databaseUrl ?? owned!.url;
  const via = pooled(databaseUrl);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_POOL_SIZE: '5', ...via, ...replicated(databaseUrl), ...options.env, DATABASE_URL: via.DATABASE_URL ?? databaseUrl });
  const app = await createApp({ config, clock: options.clock });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const sql = new Pool({ connectionString: databaseUrl, max: 2 });
  sql.on('error', () => undefined);
  return {
    app,
    api: `http://127.0.0.1:${address.port}/api`,
    sql,
    databaseUrl,
    async close() {
      await app.close();
      await sql.end();
      if (owned) await owned.drop();
    },
  };
}

/**
 * Under TEST_POOLER=1 (global-setup.js started PgBouncer) the app reaches its database through the
 * pooler in transaction mode, LISTEN and migrations on the direct address; the test's own SQL
 * (`TestApp.sql`) stays direct. A URL that names another server is left as it is.
 */
function pooled(databaseUrl: string): Record<string, string> {
  const pooler = process.env.TEST_POOLER_URL;
  if (!pooler) return {};
  const direct = new URL(databaseUrl);
  const server = new URL(serverUrl());
  if (direct.host !== server.host) return {};
  const via = new URL(pooler);
  via.pathname = direct.pathname;
  return { DATABASE_URL: via.toString(), DATABASE_POOLER: 'transaction', DATABASE_LISTEN_URL: databaseUrl };
}

/**
 * Under TEST_REPLICA=1 (global-setup.js made a primary and a streaming replica of it) the app
 * also reads from the replica: the same database there (DATABASE_READ_URL). A URL that names
 * another server is left as it is.
 */
function replicated(databaseUrl: string): Record<string, string> {
  const replica = process.env.TEST_REPLICA_URL;
  if (!replica) return {};
  const primary = new URL(databaseUrl);
  if (primary.host !== new URL(serverUrl()).host) return {};
  const read = new URL(replica);
  read.pathname = primary.pathname;
  return { DATABASE_READ_URL: read.toString() };
}

let primaryForPositions: Pool | null = null;

/**
 * Under TEST_REPLICA=1 a test is one observer that must see everything committed before its
 * request — its own writes through the API, the writes of the other people it plays, and its
 * direct SQL — as the contract's tests expect of one database. So every request carries the
 * primary's position at that moment (`x-service-lsn`): the service answers from the replica once
 * it has replayed that far (within the bound), else from the primary. What a caller that sends no
 * position may see is proven in test/integration/read-replica.test.ts.
 */
async function everythingSoFar(): Promise<string | undefined> {
  if (!process.env.TEST_REPLICA_URL) return undefined;
  primaryForPositions ??= new Pool({ connectionString: serverUrl(), max: 1, idleTimeoutMillis: 1000, allowExitOnIdle: true });
  const { rows } = await primaryForPositions.query<{ position: string }>(PRIMARY_POSITION_TEXT);
  return rows[0].position;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Send this string as the body as is (for unparsable JSON). */
  raw?: string;
}

/** An HTTP client that keeps its session cookie like a browser, or sends an agent token. */
export class Client {
  cookie?: string;
  token?: string;
  /** The read-your-writes cookie (`service_lsn`, read replicas only), kept like a browser keeps it: until its Max-Age. */
  position?: { value: string; until: number };

  constructor(readonly api: string) {}

  withToken(token: string): Client {
    const c = new Client(this.api);
    c.token = token;
    return c;
  }

  async request<T = unknown>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (!('cookie' in headers)) {
      const cookies = [this.cookie && `service_session=${this.cookie}`, this.position && this.position.until > Date.now() && `service_lsn=${this.position.value}`];
      if (cookies.some(Boolean)) headers.cookie = cookies.filter(Boolean).join('; ');
    }
    if (this.token && !('authorization' in headers)) headers.authorization = `Bearer ${this.token}`;
    if (!('x-service-lsn' in headers)) {
      const position = await everythingSoFar();
      if (position) headers['x-service-lsn'] = position;
    }
    let payload: string | undefined = options.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
    const response = await fetch(this.api + path, { method, headers, body: payload });
    const setCookie = response.headers.get('set-cookie');
    const match = setCookie && /service_session=([^;]*)/.exec(setCookie);
    if (match) this.cookie = match[1] || undefined;
    const position = setCookie && /service_lsn=([^;]*);.*?Max-Age=(\d+)/.exec(setCookie);
    if (position) this.position = { value: position[1], until: Date.now() + Number(position[2]) * 1000 };
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    // A redirect (a file's signed URL) was followed: the API's own answer was the redirect.
    if (response.redirected) recordAnswer(method, path, 302, null, undefined);
    else recordAnswer(method, path, response.status, response.headers.get('content-type'), parsed);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  // Without a type argument an answer's body is the route's successful answer as the API document
  // types it (see routes.ts), or `unknown`; a type argument names the body instead.
  get<P extends string>(path: P, options?: RequestOptions): Promise<Answer<RouteBody<'get', P>>>;
  get<T>(path: string, options?: RequestOptions): Promise<Answer<T>>;
  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, undefined, options);
  }
  post<P extends string>(path: P, body?: unknown, options?: RequestOptions): Promise<Answer<RouteBody<'post', P>>>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<Answer<T>>;
  post(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('POST', path, body, options);
  }
  put<P extends string>(path: P, body?: unknown, options?: RequestOptions): Promise<Answer<RouteBody<'put', P>>>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<Answer<T>>;
  put(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('PUT', path, body, options);
  }
  patch<P extends string>(path: P, body?: unknown, options?: RequestOptions): Promise<Answer<RouteBody<'patch', P>>>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<Answer<T>>;
  patch(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('PATCH', path, body, options);
  }
  delete<P extends string>(path: P, body?: unknown, options?: RequestOptions): Promise<Answer<RouteBody<'delete', P>>>;
  delete<T>(path: string, body?: unknown, options?: RequestOptions): Promise<Answer<T>>;
  delete(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('DELETE', path, body, options);
  }
}

export const uniqueEmail = (label = 'user'): string => `${label}-${randomUUID().slice(0, 8)}@example.com`;

export interface Person {
  client: Client;
  user: UserAnswer;
  email: string;
  password: string;
}

/** Registers a new person and answers a client signed in as them. */
export async function registerPerson(t: TestApp, name = 'Pat', email = uniqueEmail(), password = 'correct horse'): Promise<Person> {
  const client = new Client(t.api);
  const res = await client.post<{ user: UserAnswer }>('/auth/register', { email, name, password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { client, user: res.body.user, email, password };
}

/** Creates a project as `owner` and answers it. */
export async function createProject(owner: Client, name = 'Test project', key?: string): Promise<ProjectAnswer> {
  const res = await owner.post<{ project: ProjectAnswer }>('/projects', key ? { name, key } : { name });
  if (res.status !== 201) throw new Error(`project create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.project;
}

/** Adds an agent to a project and answers a client that calls with its token. */
export async function createAgent(owner: Client, projectId: string, name = 'Robo'): Promise<{ client: Client; agent: MemberAnswer; token: string }> {
  const res = await owner.post<{ agent: MemberAnswer; token: string }>(`/projects/${projectId}/agents`, { name });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { client: owner.withToken(res.body.token), agent: res.body.agent, token: res.body.token };
}

/** Adds an existing person to a project with a role. */
export async function addMember(owner: Client, projectId: string, person: Person, role: 'member' | 'admin' = 'member'): Promise<void> {
  const res = await owner.post(`/projects/${projectId}/members`, { email: person.email, role });
  if (res.status !== 201) throw new Error(`member add failed: ${res.status} ${JSON.stringify(res.body)}`);
}
