import { DataSource } from 'typeorm';
import { Pool, PoolClient, types } from 'pg';
import { MIGRATIONS } from './migrations';
import { compile, sql } from './sql';
import { ReplicaRouter } from './replica-router';
import { countSessions, sessionsClosed } from './pool-sessions';
import { readInTurns } from './read-in-turns';

// A `date` column is a calendar day, not a moment: keep it as the YYYY-MM-DD string.
types.setTypeParser(1082, (value: string) => value);

export interface DatabaseSettings {
  url: string;
  poolSize: number;
  applicationName?: string;
  /**
   * Longest wait for a free connection before the caller is told the server is busy (the
   * requests' pool: 5 seconds, decisions.md › Fair use).
   */
  waitMs?: number;
  /**
   * Every statement's limit on these connections, unless its transaction raises it (heavy reads).
   * Sent in the connection's start-up message, so it costs no round trip on the hot path; unset,
   * statements run as long as they need (migrations).
   */
  statementMs?: number;
}

export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    // Parameters can carry digests and hashes: TypeORM never logs queries; failures are logged
    // by the exception filter without their parameters.
    logging: false,
    poolSize: settings.poolSize,
    applicationName: settings.applicationName ?? 'task-board',
    extra: {
      connectionTimeoutMillis: settings.waitMs ?? 10_000,
      idleTimeoutMillis: 30_000,
      ...(settings.statementMs ? { statement_timeout: settings.statementMs } : {}),
    },
  });
}

export interface BackgroundPoolSettings {
  url: string;
  size: number;
}

/**
 * The background work's own connections (the webhook worker, the sweepers, the stream access
 * watch): a flood of requests can fill the requests' pool but never these. No statement limit —
 * a sweep may delete many rows — and a long wait for a connection, since nobody waits on an answer.
 */
export function createBackgroundPool(settings: BackgroundPoolSettings, onError: (error: Error) => void): Pool {
  const pool = new Pool({
    connectionString: settings.url,
    max: settings.size,
    application_name: 'task-board-background',
    connectionTimeoutMillis: 60_000,
    idleTimeoutMillis: 30_000,
  });
  // Exports and charts read big answers here too.
  hearClients(pool, onError, { paced: true });
  countSessions(pool);
  return pool;
}

/**
 * The one connection of the instance's beats (`PgInstanceRegistry`). A beat waits at most
 * `timeoutMs` (the time an instance stays alive without a beat) for it or for its statement: one
 * that takes longer is of no use any more, and the next beat tries afresh.
 */
export function createLivenessPool(settings: { url: string; timeoutMs: number }, onError: (error: Error) => void): Pool {
  const pool = new Pool({
    connectionString: settings.url,
    max: 1,
    application_name: 'task-board-liveness',
    connectionTimeoutMillis: settings.timeoutMs,
    statement_timeout: settings.timeoutMs,
    idleTimeoutMillis: 0,
  });
  hearClients(pool, onError, { paced: false });
  countSessions(pool);
  return pool;
}

/** Opens the pool and keeps an error listener on every client: a cut connection must not crash the process. */
export async function openDataSource(dataSource: DataSource, onError: (error: Error) => void): Promise<DataSource> {
  await dataSource.initialize();
  const pool = poolOf(dataSource);
  if (!pool) return dataSource;
  // Its connections so far are TypeORM's, made while initialising, idle now.
  countSessions(pool, pool.totalCount);
  // On every client handed out, not only on those connected from now on: TypeORM opened one while
  // initialising, before a listener of 'connect' would exist. A board of 50,000 tasks arrives here.
  hearClients(pool, onError, { paced: true, on: 'acquire' });
  return dataSource;
}

/**
 * What every pool's clients get: the pool's and each client's error listener (a connection cut
 * while idle or in use must not crash the process) and, on the pools that read big answers, an
 * answer's chunks one per turn of the event loop (read-in-turns.ts). Once per client, on `on`:
 * 'connect' for pools made here, 'acquire' for one that had clients before the listener existed.
 */
function hearClients(pool: Pool, onError: (error: Error) => void, options: { paced: boolean; on?: 'connect' | 'acquire' }): void {
  pool.on('error', onError);
  const heard = new WeakSet<object>();
  pool.on(options.on ?? 'connect', (client: PoolClient) => {
    if (heard.has(client)) return;
    heard.add(client);
    client.on('error', onError);
    if (options.paced) readInTurns(client);
  });
}

/**
 * Closes a data source opened by `openDataSource` and answers once the server has closed its
 * connections (pool-sessions.ts: `destroy()` alone answers before that).
 */
export async function closeDataSource(dataSource: DataSource): Promise<void> {
  if (!dataSource.isInitialized) return;
  const pool = poolOf(dataSource);
  await dataSource.destroy();
  if (pool) await sessionsClosed(pool);
}

/** TypeORM's pool of a PostgreSQL data source (its driver keeps it as `master`; unset until initialised). */
function poolOf(dataSource: DataSource): Pool | undefined {
  return (dataSource.driver as unknown as { master?: Pool }).master;
}

const MIGRATION_LOCK = 4_217_001;
// TypeORM's query runner takes text and values: the `sql` templates compiled once.
const LOCK = compile(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
const UNLOCK = compile(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);

/**
 * Applies pending migrations under a session advisory lock, so two instances starting together
 * take turns: the second finds nothing left to do.
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query(LOCK.text, LOCK.values);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query(UNLOCK.text, UNLOCK.values);
    }
  } finally {
    await runner.release();
  }
}

export interface ReplicaSettings {
  /** The primary (DATABASE_URL, or DATABASE_LISTEN_URL behind a transaction-mode pooler): sampled for its WAL position. */
  primaryUrl: string;
  /** DATABASE_READ_URL, one or more; none turns the router off. */
  urls: string[];
  /** Connections of each replica's pool (DATABASE_READ_POOL_SIZE). */
  poolSize: number;
  /** As for the requests' pool: the longest wait for a connection, and the statement limit (unset behind a transaction-mode pooler). */
  waitMs: number;
  statementMs?: number;
  /** DATABASE_READ_MAX_LAG_MS. */
  maxLagMs: number;
}

/** A measurement that does not answer within this is a failed one: the server counts as away. */
const SAMPLE_TIMEOUT_MS = 1000;

/**
 * The read replicas' pools, each like the requests' pool (same wait, same statement limit), and
 * the router that sends reads to them (replica-router.ts) with one connection of its own per
 * server for its measurements. Nothing connects until the first read or sample.
 */
export function createReplicaRouter(settings: ReplicaSettings, onError: (error: Error) => void): ReplicaRouter {
  const watch = (url: string, name: string) => {
    const pool = new Pool({ connectionString: url, max: 1, application_name: name, connectionTimeoutMillis: SAMPLE_TIMEOUT_MS, query_timeout: SAMPLE_TIMEOUT_MS });
    hearClients(pool, onError, { paced: false });
    countSessions(pool);
    return pool;
  };
  const replicas = settings.urls.map((url) => {
    const pool = new Pool({
      connectionString: url,
      max: settings.poolSize,
      application_name: 'task-board-replica',
      connectionTimeoutMillis: settings.waitMs,
      idleTimeoutMillis: 30_000,
      ...(settings.statementMs ? { statement_timeout: settings.statementMs } : {}),
    });
    // The board's reads go here too.
    hearClients(pool, onError, { paced: true });
    countSessions(pool);
    return { pool, watch: watch(url, 'task-board-replica-watch') };
  });
  if (replicas.length === 0) return ReplicaRouter.none();
  return new ReplicaRouter(watch(settings.primaryUrl, 'task-board-primary-watch'), replicas, { maxLagMs: settings.maxLagMs });
}
