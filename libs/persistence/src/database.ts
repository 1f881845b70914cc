import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { escapeLiteral, Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { UnitOfWorkOptions } from '@board/kernel';
import { compile, Sql, sql } from './sql';
import { advisoryXactLock, projectLockKey } from './locks.sql';

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
  private readonly names = new Map<string, string>();

  constructor(readonly dataSource: DataSource) {}

  private get pool(): Pool {
    const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
    if (!pool) throw new Error('the database pool is not open');
    return pool;
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
    const client = await this.pool.connect();
    // A connection that failed BEGIN or ROLLBACK is not handed to the next caller.
    let broken: Error | undefined;
    try {
      await client.query('BEGIN').catch((error: Error) => {
        broken = error;
        throw error;
      });
      const tx: OpenTransaction = { client, notices: [] };
      try {
        const result = await this.current.run(tx, async () => {
          if (options.lockProject) await this.lockProject(client, options.lockProject);
          return work();
        });
        await client.query(commitText(tx.notices));
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw error;
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
    if (options.prepare) config.name = this.nameOf(text);
    const open = this.current.getStore();
    const result: QueryResult = open ? await open.client.query(config) : await this.pool.query(config);
    return { rows: result.rows as T[], count: result.rowCount ?? 0 };
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
    await client.query({ name: 'tb_lock_project', text: LOCK_PROJECT_TEXT, values: [projectId] });
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

/** PostgreSQL error code of a failed statement (23505 unique violation, …), if any. */
export function pgErrorCode(error: unknown): { code?: string; constraint?: string } {
  const e = error as { driverError?: { code?: string; constraint?: string }; code?: string; constraint?: string };
  return { code: e?.driverError?.code ?? e?.code, constraint: e?.driverError?.constraint ?? e?.constraint };
}
