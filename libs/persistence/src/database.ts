import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { escapeLiteral, Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { DomainError, fail, HEAVY_READS_AT_ONCE, UnitOfWorkOptions } from '@board/kernel';
import { compile, joinSql, Sql, sql } from './sql';
import { advisoryXactLock, heavyReadSlotKey, projectLockKey, tryAdvisoryXactLock } from './locks.sql';
import { DatabaseLanes } from './lanes';
import { PositionTrack, PRIMARY_POSITION_TEXT, readWalPosition } from './wal-position';

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
  /**
   * The statement writes (a one-statement write, run outside a transaction): with read replicas
   * its position is noted for the caller, as a transaction's is at its COMMIT.
   */
  writes?: boolean;
}

interface OpenTransaction {
  client: PoolClient;
  /** pg_notify calls held back to travel with COMMIT (PostgreSQL sends them at commit anyway). */
  notices: Array<[string, string]>;
  /** A read-only transaction on a replica (a heavy read routed there): it has no position to note. */
  onReplica: boolean;
  /** It changed what a credential check answers (`credentialsChanged`): told after its COMMIT. */
  credentials: boolean;
}

/**
 * A flow's lane: the background pool, or a read that only shows data (`replica`) on the pool the
 * router chose — a replica, or the primary (null) from the moment the flow writes, since the
 * replica may not have replayed that write yet.
 */
type Lane = { kind: 'background'; pool: Pool } | { kind: 'read'; pool: Pool | null };

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
  /** Set inside `background` and `replica`: where the flow takes its connections from. */
  private readonly lane = new AsyncLocalStorage<Lane>();
  /** Set by `tracking` for a request: what its caller has seen, and where its writes end. */
  private readonly tracks = new AsyncLocalStorage<PositionTrack>();
  private readonly names = new Map<string, string>();
  /** Told after each commit of this instance that changed what a credential check answers. */
  private readonly credentialWatchers = new Set<() => void>();

  constructor(
    readonly dataSource: DataSource,
    private readonly lanes: DatabaseLanes,
  ) {}

  /** The requests' pool (TypeORM's), once the data source is open. */
  get requestsPool(): Pool | undefined {
    return (this.dataSource.driver as unknown as { master?: Pool }).master;
  }

  /** The primary's pool this flow writes on: the background pool inside `background`, else the requests'. */
  private get pool(): Pool {
    const lane = this.lane.getStore();
    if (lane?.kind === 'background') return lane.pool;
    const pool = this.requestsPool;
    if (!pool) throw new Error('the database pool is not open');
    return pool;
  }

  /** Where this flow's statements outside a transaction go: the replica chosen for a read, else `pool`. */
  private get readPool(): Pool {
    const lane = this.lane.getStore();
    return (lane?.kind === 'read' && lane.pool) || this.pool;
  }

  /**
   * Runs `work` (and everything it awaits) on the background pool, which requests never take:
   * the webhook worker and the sweepers go on while requests fill their own pool.
   */
  background<T>(work: () => Promise<T>): Promise<T> {
    return this.lane.run({ kind: 'background', pool: this.lanes.background }, work);
  }

  /**
   * Runs a request's `work` for a caller who has seen the writes up to `track.seen`; the position
   * of every write it commits is noted on `track` (for the answer's cookie or header). Without
   * read replicas nothing is noted and COMMIT stays as it is.
   */
  tracking<T>(track: PositionTrack, work: () => Promise<T>): Promise<T> {
    return this.lanes.replicas.enabled ? this.tracks.run(track, work) : work();
  }

  /**
   * Runs a read that only shows data (the board, a view's tasks, the feed, search, lists, charts,
   * usage) on a read replica (DATABASE_READ_URL) when one is current enough: it has replayed
   * whatever this caller wrote or was told of, and lags the primary by at most the bound
   * (replica-router.ts); else on the primary. Every statement of the read goes to that one server,
   * so its parts are never older than one another (the board cache's stamp is read first).
   * Inside a transaction nothing changes: a read inside a write stays on the primary; a write the
   * read makes (closing overdue runs) commits on the primary, and the rest of the read follows it
   * there. A read cut on the replica — the server went away, or replay cancelled it (a conflict
   * with recovery) — runs again on the primary.
   */
  async replica<T>(work: () => Promise<T>): Promise<T> {
    const router = this.lanes.replicas;
    if (!router.enabled || this.current.getStore() || this.lane.getStore()) return work();
    const pool = await router.poolFor(this.tracks.getStore()?.floor ?? null);
    if (!pool) return work();
    const lane: Lane = { kind: 'read', pool };
    try {
      return await this.lane.run(lane, work);
    } catch (error) {
      if (lane.pool === null || !lostOnReplica(error)) throw error;
      router.countFallback();
      return work();
    }
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
    // A heavy read routed to a replica takes its slot there: the slots then hold per server, and
    // each server is spared more than N of one caller's heavy reads at once.
    return this.transaction(
      async () => {
        const row = await this.single<{ slot: number }>(takeHeavySlot(callerId, this.lanes.heavyStatementMs));
        if (row.slot === 0) fail('heavy.too_many');
        return work();
      },
      {},
      this.readPool,
    );
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /** A transaction on the primary (`on`: a read-only one on the replica a read was routed to). */
  async transaction<T>(work: () => Promise<T>, options: UnitOfWorkOptions = {}, on: Pool = this.pool): Promise<T> {
    const open = this.current.getStore();
    if (open) {
      if (options.lockProject) await this.lockProject(open.client, options.lockProject);
      return work();
    }
    const onReplica = on !== this.pool;
    const client = await on.connect().catch(rethrowBusy);
    // A connection that failed BEGIN or ROLLBACK is not handed to the next caller.
    let broken: Error | undefined;
    try {
      await client.query(this.beginText()).catch((error: Error) => {
        broken = error;
        throw error;
      });
      const tx: OpenTransaction = { client, notices: [], onReplica, credentials: false };
      try {
        const result = await this.current.run(tx, async () => {
          if (options.lockProject) await this.lockProject(client, options.lockProject);
          return work();
        });
        await this.commit(tx);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw busyOr(error);
      } finally {
        // Also after a failed COMMIT, whose outcome a cut connection leaves unknown: a watcher
        // told of a change that rolled back only forgets what it kept.
        if (tx.credentials) this.tellCredentialWatchers();
      }
    } finally {
      client.release(broken);
    }
  }

  /**
   * COMMIT with the notices. For a request under `tracking` (read replicas configured), the same
   * message asks whether the transaction wrote and, after COMMIT, the primary's position — at or
   * after the commit record — with no round trip of its own; a write is noted on the track, and a
   * read routed to a replica follows its own write to the primary.
   */
  private async commit(tx: OpenTransaction): Promise<void> {
    const track = tx.onReplica ? undefined : this.tracks.getStore();
    if (!track) {
      await tx.client.query(commitText(tx.notices)).catch(rethrowBusy);
      return;
    }
    const answers = (await tx.client.query(`${WROTE_TEXT}; ${commitText(tx.notices)}; ${PRIMARY_POSITION_TEXT}`).catch(rethrowBusy)) as unknown as QueryResult[];
    const wrote = answers[0].rows[0]?.wrote === true;
    const position = readWalPosition(answers.at(-1)?.rows[0]?.position);
    if (!wrote || position === null) return;
    this.wrote(track, position);
  }

  private wrote(track: PositionTrack, position: bigint): void {
    track.noteWrite(position);
    const lane = this.lane.getStore();
    if (lane?.kind === 'read') lane.pool = null;
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
    const pool = options.writes ? this.pool : this.readPool;
    if (!this.current.getStore() && this.limitPerTransaction()) {
      // Behind a transaction-mode pooler the limit cannot ride on the connection: the statement
      // runs in a transaction of its own that sets it (two more round trips, the pooler's price).
      return this.transaction(async () => (await this.send<T>(config, pool)).rows, {}, pool);
    }
    const { rows, command } = await this.send<T>(config, pool);
    if (!this.current.getStore() && (options.writes || WRITE_COMMANDS.has(command))) await this.noteStatementWrite();
    return rows;
  }

  private async send<T>(config: QueryConfig, pool: Pool): Promise<{ rows: Rows<T>; command: string }> {
    const open = this.current.getStore();
    const result: QueryResult = await (open ? open.client.query(config) : pool.query(config)).catch(rethrowBusy);
    return { rows: { rows: result.rows as T[], count: result.rowCount ?? 0 }, command: result.command };
  }

  /**
   * A statement that wrote and committed on its own (its command, or `writes` for a write that
   * answers as a SELECT: a CTE, a function): its position is any primary position read after it
   * (one more statement, on the router's own connection, only for a request under `tracking`).
   */
  private async noteStatementWrite(): Promise<void> {
    const track = this.tracks.getStore();
    if (track) this.wrote(track, await this.lanes.replicas.primaryPosition());
  }

  /**
   * Whether this flow's statements must set the requests' limit themselves: on the requests'
   * pool behind a transaction-mode pooler (the background lane has no limit to set).
   */
  private limitPerTransaction(): boolean {
    return !this.lanes.shape.sessions && this.lane.getStore()?.kind !== 'background';
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
      const { text, values } = compile(sql`SELECT pg_notify(${channel}, ${payload})`);
      await this.send({ text, values }, this.pool);
      return;
    }
    // PostgreSQL folds identical notices of one transaction into one; so does this.
    if (!open.notices.some(([c, p]) => c === channel && p === payload)) open.notices.push([channel, payload]);
  }

  /**
   * Says that the statement just run changed what a credential check answers (a session, token,
   * membership or project gone, a role, a person's name, a task binned). The watchers hear it as
   * soon as it is committed — after this flow's COMMIT, or at once outside a transaction — so this
   * instance's cached answers go before its next request; the other instances hear the triggers'
   * notices (migrations 1764547200000, 1765001800000), which cannot reach this one in time.
   */
  credentialsChanged(): void {
    const open = this.current.getStore();
    if (open) open.credentials = true;
    else this.tellCredentialWatchers();
  }

  /** Calls `watcher` after every commit of `credentialsChanged`; answers the call that stops it. */
  watchCredentials(watcher: () => void): () => void {
    this.credentialWatchers.add(watcher);
    return () => this.credentialWatchers.delete(watcher);
  }

  private tellCredentialWatchers(): void {
    for (const watcher of this.credentialWatchers) watcher();
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

/** Asked just before COMMIT: a transaction that changed nothing has no transaction id. */
const WROTE_TEXT = 'SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS wrote';

/** Commands of statements that wrote (a CTE's or a function's writes answer as SELECT: `writes`). */
const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * A read on a replica that the primary can answer instead: the connection went away (a replica
 * restarting or promoted: 57P01–57P03, a cut socket, a refused connection) or replay cancelled it
 * (40001: conflict with recovery). A read that fails on its own terms fails on the primary too.
 */
function lostOnReplica(error: unknown): boolean {
  if (error instanceof DomainError) return false;
  const { code } = pgErrorCode(error);
  if (code === '40001' || code === '57P01' || code === '57P02' || code === '57P03') return true;
  const message = (error as Error | undefined)?.message ?? '';
  return /^Connection terminated|ECONNREFUSED|ECONNRESET|the database system is (starting up|shutting down|in recovery mode)/.test(message);
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
 * Whether a failure means "the database is busy", not "this request is wrong", and which busy it
 * is, in words for the operator's log line (the answer says only "busy"): a statement cancelled at
 * its time limit (57014), no free connection within the wait (the pool's own error, or the
 * driver's when opening one took too long), or a server out of connections (53300). Null for any
 * other failure. A pool too small for its load and a statement held up by locks or a slow plan
 * want different cures.
 */
export function busyReason(error: unknown): string | null {
  if (error instanceof DomainError) return null;
  const { code } = pgErrorCode(error);
  if (code === '57014') return 'a statement ran past its time limit';
  if (code === '53300') return 'PostgreSQL is out of connections';
  const message = (error as Error | undefined)?.message ?? '';
  if (message === 'timeout exceeded when trying to connect') return 'no pooled connection came free within the wait';
  if (message === 'Connection terminated due to connection timeout') return 'opening a connection took longer than the wait';
  return null;
}

/** The error as the caller should see it: `server.busy` (with why, for the log) for a busy database, else itself. */
function busyOr(error: unknown): unknown {
  const why = busyReason(error);
  return why === null ? error : new DomainError('server.busy', { why });
}

function rethrowBusy(error: unknown): never {
  throw busyOr(error);
}

/** PostgreSQL error code of a failed statement (23505 unique violation, …), if any. */
export function pgErrorCode(error: unknown): { code?: string; constraint?: string } {
  const e = error as { driverError?: { code?: string; constraint?: string }; code?: string; constraint?: string };
  return { code: e?.driverError?.code ?? e?.code, constraint: e?.driverError?.constraint ?? e?.constraint };
}
