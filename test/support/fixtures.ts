/**
 * Shared helpers for the end-to-end and integration tests: making tasks and properties through the
 * API, watching the `board_changes` notices, reading feed lines, and checking answers.
 *
 * HTTP helpers take a `Client` (as whom to call); SQL helpers take the `TestApp` (anything with its
 * `sql` pool). Helpers that set things up throw with the status and body of an unexpected answer, so
 * a broken set-up fails loudly instead of letting the test check the wrong thing.
 */
import { randomUUID } from 'node:crypto';
import { Client as PgClient, Pool } from 'pg';
import type { ChangeNotice, FeedRow, PropertyAnswer, TaskAnswer } from './answers';
import type { Answer, Client } from './test-app';

/** Anything with the app's SQL pool: a `TestApp` will do. */
export interface HasSql {
  sql: Pool;
}

// ---------------------------------------------------------------------------------------------
// Answers

/**
 * Awaits a request and answers its body, or throws `expected <status>, got <status> <body>`
 * when it answered another status.
 */
export async function expectStatus<T>(res: Promise<{ status: number; body: T }>, status: number): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Asserts an error answer: exactly `status` and the body `{ error: message }`.
 * With a `label` (e.g. the route), the label stands in the compared object so a failure names it.
 */
export function expectError(res: Answer, status: number, message: string, label?: string): void {
  if (label === undefined) {
    expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: message } });
  } else {
    expect({ label, status: res.status, body: res.body }).toEqual({ label, status, body: { error: message } });
  }
}

// ---------------------------------------------------------------------------------------------
// Tasks and properties through the API

/**
 * Creates a task with `POST /projects/:projectId/tasks` as `client` and answers the `task` of the
 * answer. Sends `{ title }`, or `{ title, values }` when `values` is given.
 */
export async function createTask(client: Client, projectId: string, title: string, values?: Record<string, unknown>): Promise<TaskAnswer> {
  return createTaskFromBody(client, projectId, values === undefined ? { title } : { title, values });
}

/** Creates a task from a whole request body (description, values, placement…) and answers the `task`. */
export async function createTaskFromBody(client: Client, projectId: string, body: Record<string, unknown>): Promise<TaskAnswer> {
  const res = await client.post<{ task: TaskAnswer }>(`/projects/${projectId}/tasks`, body);
  if (res.status !== 201) throw new Error(`task create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.task;
}

/** A property as the API answers it (id, name, type, config, options, …). */
export type PropertyInfo = PropertyAnswer;

/**
 * Creates a property with `POST /projects/:projectId/properties` as `client` and answers the
 * `property` of the answer. Sends `options` only when given. Throws unless the answer is 201.
 */
export async function createProperty(client: Client, projectId: string, name: string, type: string, options?: string[]): Promise<PropertyInfo> {
  const res = await client.post<{ property: PropertyAnswer }>(`/projects/${projectId}/properties`, options ? { name, type, options } : { name, type });
  if (res.status !== 201) throw new Error(`property create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.property;
}

// ---------------------------------------------------------------------------------------------
// Rows straight into the tables

/** What `insertTask` writes; anything left out takes the defaults below. */
export interface TaskRow {
  /** Defaults to the next number of a counter this file shares (1, 2, 3…). */
  number?: number;
  /** Defaults to 'A task'. */
  title?: string;
  /** The stored `values`; defaults to `{}`. */
  values?: Record<string, unknown>;
  /** Archived (or deleted) now when true. */
  archived?: boolean;
  deleted?: boolean;
}

let insertedTasks = 0;
let insertedRanks = 0;

/** A distinct whole key of the rank format per inserted row ('e' and five base-62 digits): a project's ranks are unique. */
function insertedRank(): string {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let n = ++insertedRanks;
  let key = '';
  for (let i = 0; i < 5; i++, n = Math.floor(n / 62)) key = digits[n % 62] + key;
  return 'e' + key;
}

/**
 * Writes a task row straight into the `tasks` table (after the ranks the API hands out, in the
 * order of the calls) and answers its id. Unlike
 * the API it writes no feed line and rings no change notice, so tests that count notices can set up
 * tasks quietly; it also lets a test store values and states the API would never write.
 */
export async function insertTask(t: HasSql, projectId: string, row: TaskRow = {}): Promise<string> {
  const id = randomUUID();
  const number = row.number ?? ++insertedTasks;
  await t.sql.query(
    `INSERT INTO tasks (id, project_id, number, title, position, "values", archived_at, deleted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [id, projectId, number, row.title ?? 'A task', insertedRank(), JSON.stringify(row.values ?? {}), row.archived ? new Date() : null, row.deleted ? new Date() : null],
  );
  return id;
}

/**
 * `count` live tasks written straight into the project in one statement, after its existing ones
 * (numbers continue; ranks `d0` + three base-62 digits, whole keys of the kernel's rank format, up to 238,328 tasks: once per project), and the
 * project's number counter and task count moved with them, as the service's own writes move
 * them. For boards of tens of thousands of tasks: through the API that would take minutes.
 */
export async function seedTasks(t: HasSql, projectId: string, count: number): Promise<void> {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  await t.sql.query(
    `WITH p AS (
       UPDATE projects SET task_counter = task_counter + $3, task_count = task_count + $3 WHERE id = $1 RETURNING task_counter - $3 AS base)
     INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_at, updated_at)
     SELECT gen_random_uuid(), $1, p.base + n, 'Seeded task ' || n, 'Seeded so the board is large.',
            'd0' || substr($2, n / 3844 + 1, 1) || substr($2, (n / 62) % 62 + 1, 1) || substr($2, n % 62 + 1, 1),
            '{}'::jsonb, now(), now()
       FROM p, generate_series(1, $3::int) AS n`,
    [projectId, digits, count],
  );
}

// ---------------------------------------------------------------------------------------------
// Feed lines

/** Columns of the `activity` table a test may read. */
export type FeedColumn = 'kind' | 'data' | 'actor_id' | 'task_id' | 'project_id';
const FEED_COLUMNS: readonly FeedColumn[] = ['kind', 'data', 'actor_id', 'task_id', 'project_id'];

/**
 * A task's feed lines (rows of `activity`), oldest first, with the given `columns`
 * (by default kind, data and actor_id). `kind` keeps only lines of that kind;
 * `{ not: kind }` keeps all but that kind; leave it out for every line.
 */
export async function feedLines(
  t: HasSql,
  taskId: string,
  kind?: string | { not: string },
  columns: readonly FeedColumn[] = ['kind', 'data', 'actor_id'],
): Promise<FeedRow[]> {
  for (const c of columns) if (!FEED_COLUMNS.includes(c)) throw new Error(`not a feed column: ${c}`);
  const params: unknown[] = [taskId];
  let where = 'task_id = $1';
  if (typeof kind === 'string') {
    params.push(kind);
    where += ' AND kind = $2';
  } else if (kind) {
    params.push(kind.not);
    where += ' AND kind <> $2';
  }
  return (await t.sql.query<FeedRow>(`SELECT ${columns.join(', ')} FROM activity WHERE ${where} ORDER BY created_at, id`, params)).rows;
}

// ---------------------------------------------------------------------------------------------
// Change notices

/** The `board_changes` notices one listener has seen. */
export interface ChangeListener {
  /** Every notice not yet taken, as parsed JSON, in arrival order. */
  readonly seen: ChangeNotice[];
  /** The notices since the last call (they are taken out of `seen`), after giving late ones 150 ms to arrive. */
  take(): Promise<ChangeNotice[]>;
  /** Resolves once a notice in `seen` matches; fails after `ms`. */
  waitFor(match: (notice: ChangeNotice) => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens to `board_changes` on a database (usually `t.databaseUrl`), as PostgreSQL delivers the
 * stream notices to every instance of the app. Close it when done.
 */
export async function listenChanges(databaseUrl: string): Promise<ChangeListener> {
  const client = new PgClient({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  const seen: ChangeNotice[] = [];
  client.on('notification', (n) => seen.push(JSON.parse(n.payload ?? '{}')));
  await client.query('LISTEN board_changes');
  return {
    seen,
    async take(): Promise<ChangeNotice[]> {
      await new Promise((r) => setTimeout(r, 150));
      return seen.splice(0);
    },
    async waitFor(match: (notice: ChangeNotice) => boolean, ms = 3000): Promise<void> {
      const until = Date.now() + ms;
      while (!seen.some(match)) {
        if (Date.now() > until) throw new Error(`no notification matched; seen ${JSON.stringify(seen)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => client.end(),
  };
}

/**
 * Opens a transaction through the app's Database (with the project lock when asked), runs `work`
 * in it, and keeps it open until `release` is called: for tests of what waits for what. Answers
 * once `work` has run; `release` ends the transaction and waits for it.
 */
export async function holdTransaction(
  db: { transaction<T>(work: () => Promise<T>, options?: { lockProject?: string }): Promise<T> },
  work: () => Promise<unknown> = async () => undefined,
  options: { lockProject?: string } = {},
): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let ready!: () => void;
  let failed!: (error: unknown) => void;
  const isReady = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const holder = db.transaction(async () => {
    await work().catch((error) => (failed(error), Promise.reject(error)));
    ready();
    await held;
  }, options);
  holder.catch(failed);
  await isReady;
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

/** A request's answer, or null when it has not come within `ms` (the request goes on). */
export function within<T>(request: Promise<T>, ms = 5000): Promise<T | null> {
  return Promise.race([request, new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}
