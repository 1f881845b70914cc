import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { escapeLiteral, Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { DomainError, fail, HEAVY_READS_AT_ONCE, UnitOfWorkOptions } from '@board/kernel';
import { compile, joinSql, Sql, sql } from './sql';
import { advisoryXactLock, heavyReadSlotKey, projectLockKey, tryAdvisoryXactLock } from './locks.sql';
import { DatabaseLanes } from './lanes';

export interface Rows<T> {
  rows: T[];
  count: number;
}

export interface ExecOptions {
  /**
   * Run as a named prepared statement: PostgreSQL parses and plans it once per connection.
   * Only for hot statements of a fixed text that name their columns (a prepared `SELECT *`
   * fails once a migration adds a column under a running instance).
   */
  prepare?: boolean;
}

interface OpenTransaction {
  client: PoolClient;
  /** pg_notify calls held back to travel with COMMIT (PostgreSQL sends them at commit anyway). */
  notices: Array<[string, string]>;
}

/**
 * The one gateway to PostgreSQL, on the pool TypeORM opened (migrations stay TypeORM's). Inside
 * `transaction` every query of the same async flow runs on the transaction's connection
 * (AsyncLocalStorage), so repositories never pass a handle around.
 *
 * Round trips are the cost of a write here (bench/README.md, finding 4): statements run on the
 * driver directly, hot ones as prepared statements, and the notices of a transaction are sent in
 * the same round trip as its COMMIT.
 */
@Injectable()
export class Database {
  private readonly current = new AsyncLocalStorage<OpenTransaction>();
  /** Set inside `background`: the flow takes its connections from the background pool. */
  private readonly lane = new AsyncLocalStorage<Pool>();
  private readonly names = new Map<string, string>();

  constructor(
    readonly dataSource: DataSource,
    private readonly lanes: DatabaseLanes,
  ) {}

  /** The requests' pool (TypeORM's), once the data source is open. */
  get requestsPool(): Pool | undefined {
    return (this.dataSource.driver as unknown as { master?: Pool }).master;
  }

  private get pool(): Pool {
    const background = this.lane.getStore();
    if (background) return background;
    const pool = this.requestsPool;
    if (!pool) throw new Error('the database pool is not open');
    return pool;
  }

  /**
   * Runs `work` (and everything it awaits) on the background pool, which requests never take:
   * the webhook worker and the sweepers go on while requests fill their own pool.
   */
  background<T>(work: () => Promise<T>): Promise<T> {
    return this.lane.run(this.lanes.background, work);
  }

  /**
   * Runs a heavy read in a transaction of its own that holds one of the caller's slots and raises
   * its statement limit; refuses with `heavy.too_many` when every slot is held.
   *
   * The slots are transaction advisory locks on (caller, 1…N) rather than rows of leases or a
   * counter in memory: they hold across every instance on the database, cost one statement taken
   * on the connection the read runs on anyway (no write, no table to sweep), and PostgreSQL frees
   * them at COMMIT or ROLLBACK — also when a request dies or its connection is cut, so a slot
   * can never leak. Ordinary requests never come here: their path gains no round trip.
   */
  async heavy<T>(callerId: string, work: () => Promise<T>): Promise<T> {
    return this.transaction(async () => {
      const row = await this.single<{ slot: number }>(takeHeavySlot(callerId, this.lanes.heavyStatementMs));
      if (row.slot === 0) fail('heavy.too_many');
      return work();
    });
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  async transaction<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const open = this.current.getStore();
    if (open) {
      if (options.lockProject) await this.lockProject(open.client, options.lockProject);
      return work();
    }
    const client = await this.pool.connect().catch(rethrowBusy);
    // A connection that failed BEGIN or ROLLBACK is not handed to the next caller.
    let broken: Error | undefined;
    try {
      await client.query(this.beginText()).catch((error: Error) => {
        broken = error;
        throw error;
      });
      const tx: OpenTransaction = { client, notices: [] };
      try {
        const result = await this.current.run(tx, async () => {
          if (options.lockProject) await this.lockProject(client, options.lockProject);
          return work();
        });
        await client.query(commitText(tx.notices)).catch(rethrowBusy);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw busyOr(error);
      }
    } finally {
      client.release(broken);
    }
  }

  /**
   * Rows and affected count of one statement: a `sql` template (placeholders numbered by
   * `compile`), or, in older code, a text with hand-numbered `$n` and its parameter list.
   */
  async exec<T = Record<string, unknown>>(query: Sql, options?: ExecOptions): Promise<Rows<T>>;
  async exec<T = Record<string, unknown>>(text: string, params?: unknown[], options?: ExecOptions): Promise<Rows<T>>;
  async exec<T>(query: Sql | string, second?: unknown[] | ExecOptions, third?: ExecOptions): Promise<Rows<T>> {
    const { text, values, options } = statement(query, second, third);
    const config: QueryConfig = { text, values };
    if (options.prepare && this.lanes.shape.prepared) config.name = this.nameOf(text);
    if (!this.current.getStore() && this.limitPerTransaction()) {
      // Behind a transaction-mode pooler the limit cannot ride on the connection: the statement
      // runs in a transaction of its own that sets it (two more round trips, the pooler's price).
      return this.transaction(() => this.send<T>(config));
    }
    return this.send<T>(config);
  }

  private async send<T>(config: QueryConfig): Promise<Rows<T>> {
    const open = this.current.getStore();
    const result: QueryResult = await (open ? open.client.query(config) : this.pool.query(config)).catch(rethrowBusy);
    return { rows: result.rows as T[], count: result.rowCount ?? 0 };
  }

  /**
   * Whether this flow's statements must set the requests' limit themselves: on the requests'
   * pool behind a transaction-mode pooler (the background lane has no limit to set).
   */
  private limitPerTransaction(): boolean {
    return !this.lanes.shape.sessions && this.lane.getStore() === undefined;
  }

  /**
   * BEGIN, and behind a transaction-mode pooler the requests' limit in the same message: SET
   * LOCAL ends with the transaction, so nothing is left on a server connection the next client
   * of the pooler takes over.
   */
  private beginText(): string {
    return this.limitPerTransaction() ? `BEGIN; SET LOCAL statement_timeout = ${Math.floor(this.lanes.shape.statementMs)}` : 'BEGIN';
  }

  async query<T = Record<string, unknown>>(query: Sql, options?: ExecOptions): Promise<T[]>;
  async query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: ExecOptions): Promise<T[]>;
  async query<T>(query: Sql | string, second?: unknown[] | ExecOptions, third?: ExecOptions): Promise<T[]> {
    return (await this.execAny<T>(query, second, third)).rows;
  }

  async one<T = Record<string, unknown>>(query: Sql, options?: ExecOptions): Promise<T | null>;
  async one<T = Record<string, unknown>>(text: string, params?: unknown[], options?: ExecOptions): Promise<T | null>;
  async one<T>(query: Sql | string, second?: unknown[] | ExecOptions, third?: ExecOptions): Promise<T | null> {
    return (await this.execAny<T>(query, second, third)).rows[0] ?? null;
  }

  /**
   * A statement that always answers one row (an aggregate, a function call, INSERT … RETURNING of
   * a row just written): its first row, typed without null. No row is a broken invariant, thrown.
   */
  async single<T = Record<string, unknown>>(query: Sql, options?: ExecOptions): Promise<T>;
  async single<T = Record<string, unknown>>(text: string, params?: unknown[], options?: ExecOptions): Promise<T>;
  async single<T>(query: Sql | string, second?: unknown[] | ExecOptions, third?: ExecOptions): Promise<T> {
    const row = (await this.execAny<T>(query, second, third)).rows[0];
    if (row === undefined) throw new Error('expected one row, the statement answered none');
    return row;
  }

  private execAny<T>(query: Sql | string, second?: unknown[] | ExecOptions, third?: ExecOptions): Promise<Rows<T>> {
    return typeof query === 'string'
      ? this.exec<T>(query, Array.isArray(second) ? second : [], third)
      : this.exec<T>(query, Array.isArray(second) ? undefined : second);
  }

  /**
   * pg_notify: inside a transaction it travels with the COMMIT (PostgreSQL delivers it at commit
   * either way, and drops it on rollback); outside one it is sent at once.
   */
  async notify(channel: string, payload: string): Promise<void> {
    const open = this.current.getStore();
    if (!open) {
      await this.exec(sql`SELECT pg_notify(${channel}, ${payload})`);
      return;
    }
    // PostgreSQL folds identical notices of one transaction into one; so does this.
    if (!open.notices.some(([c, p]) => c === channel && p === payload)) open.notices.push([channel, payload]);
  }

  private async lockProject(client: PoolClient, projectId: string): Promise<void> {
    // The key is defined once, in locks.sql.ts (board_create_task computes the same inside PostgreSQL);
    // its text is compiled once, not on every write.
    const name = this.lanes.shape.prepared ? 'tb_lock_project' : undefined;
    await client.query({ name, text: LOCK_PROJECT_TEXT, values: [projectId] }).catch(rethrowBusy);
  }

  private nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (!name) {
      name = 'tb_' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
      this.names.set(sql, name);
    }
    return name;
  }
}

/** The project lock's statement; its one value is the project id. */
const LOCK_PROJECT_TEXT = compile(advisoryXactLock(projectLockKey(''))).text;

function statement(query: Sql | string, second?: unknown[] | ExecOptions, third?: ExecOptions): { text: string; values: unknown[]; options: ExecOptions } {
  if (typeof query === 'string') return { text: query, values: Array.isArray(second) ? second : [], options: third ?? {} };
  const { text, values } = compile(query);
  return { text, values, options: (Array.isArray(second) ? undefined : second) ?? {} };
}

/**
 * COMMIT, preceded by the transaction's notices in the same simple-protocol message. Channel and
 * payload are quoted with the driver's literal escaping; if a notice fails, the COMMIT after it
 * is not run and the transaction rolls back.
 */
function commitText(notices: Array<[string, string]>): string {
  if (notices.length === 0) return 'COMMIT';
  return notices.map(([channel, payload]) => `SELECT pg_notify(${escapeLiteral(channel)}, ${escapeLiteral(payload)});`).join(' ') + ' COMMIT';
}

/**
 * The statement that takes a free heavy-read slot of the caller (or answers slot 0) and raises the
 * transaction's statement limit. CASE stops at the first lock it gets, so a read holds one slot.
 */
function takeHeavySlot(callerId: string, limitMs: number): Sql {
  const tries = Array.from({ length: HEAVY_READS_AT_ONCE }, (_, i) => sql`WHEN ${tryAdvisoryXactLock(heavyReadSlotKey(callerId, i + 1))} THEN ${i + 1}`);
  return sql`SELECT CASE ${joinSql(tries, ' ')} ELSE 0 END AS slot, set_config('statement_timeout', ${String(limitMs)}, true) AS limit_ms`;
}

/**
 * A failure that means "the database is busy", not "this request is wrong": a statement cancelled
 * at its time limit (57014), no free connection within the wait (the pool's own error, or the
 * driver's when opening one took too long), or a server out of connections (53300).
 */
export function isBusy(error: unknown): boolean {
  if (error instanceof DomainError) return false;
  const { code } = pgErrorCode(error);
  if (code === '57014' || code === '53300') return true;
  const message = (error as Error | undefined)?.message ?? '';
  return message === 'timeout exceeded when trying to connect' || message === 'Connection terminated due to connection timeout';
}

/** The error as the caller should see it: `server.busy` for a busy database, else itself. */
function busyOr(error: unknown): unknown {
  return isBusy(error) ? new DomainError('server.busy') : error;
}

function rethrowBusy(error: unknown): never {
  throw busyOr(error);
}

/** PostgreSQL error code of a failed statement (23505 unique violation, …), if any. */
export function pgErrorCode(error: unknown): { code?: string; constraint?: string } {
  const e = error as { driverError?: { code?: string; constraint?: string }; code?: string; constraint?: string };
  return { code: e?.driverError?.code ?? e?.code, constraint: e?.driverError?.constraint ?? e?.constraint };
}
