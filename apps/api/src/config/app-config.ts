import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';

const list = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
const int = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const bool = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^(1|true|yes)$/i.test(String(value)));

/**
 * Every setting comes from the environment (decisions.md › Configuration), checked once at
 * start so a typo fails loudly instead of running with a surprise.
 */
export class AppConfig {
  @IsOptional() @IsString() DATABASE_URL?: string;
  @Transform(int) @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE = 10;
  /** Connections of the background work (webhook worker, sweepers), which requests cannot take. */
  @Transform(int) @IsInt() @Min(1) @Max(50) DATABASE_BACKGROUND_POOL_SIZE = 2;
  /** Longest wait of a request for a database connection before it answers 503 (decisions.md › Fair use). */
  @Transform(int) @IsInt() @Min(100) @Max(600_000) DATABASE_WAIT_MS = 5000;
  /** A request's statement limit: past it the statement is cancelled and the request answers 503. */
  @Transform(int) @IsInt() @Min(100) @Max(3_600_000) DATABASE_STATEMENT_MS = 5000;
  /** The statement limit of heavy reads (charts, usage, search, export, import and its preview). */
  @Transform(int) @IsInt() @Min(100) @Max(3_600_000) DATABASE_HEAVY_STATEMENT_MS = 15_000;
  /**
   * What sits between the service and PostgreSQL. `none`: every connection is a session of its
   * own (a direct connection, or a pooler in session mode). `transaction`: a pooler in transaction
   * mode (PgBouncer before 1.21), where nothing outlives a transaction: no named prepared
   * statements, no limit sent at connect, no LISTEN. `transaction-prepared`: the same with a
   * pooler that keeps prepared statements itself (PgBouncer 1.21+ with max_prepared_statements).
   */
  @IsIn(['none', 'transaction', 'transaction-prepared']) DATABASE_POOLER: 'none' | 'transaction' | 'transaction-prepared' = 'none';
  /** A direct connection (no pooler in transaction mode) for LISTEN and migrations; unset: DATABASE_URL. */
  @IsOptional() @IsString() DATABASE_LISTEN_URL?: string;
  /**
   * Streaming replicas of the primary (one or more, comma-separated): reads that only show data
   * may go there (docs/operating.md › Read replicas). Unset: every read stays on the primary.
   */
  @Transform(list) @IsString({ each: true }) DATABASE_READ_URL: string[] = [];
  /** Connections of each replica's pool. */
  @Transform(int) @IsInt() @Min(1) @Max(200) DATABASE_READ_POOL_SIZE = 10;
  /** The most a read may lag the primary on a replica; a caller's own writes it always shows. */
  @Transform(int) @IsInt() @Min(10) @Max(60_000) DATABASE_READ_MAX_LAG_MS = 200;
  @Transform(int) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '127.0.0.1';
  @IsString() NODE_ENV = 'development';
  @IsOptional() @IsString() SERVICE_URL?: string;
  @IsIn(['open', 'invite', 'closed']) SERVICE_SIGNUP: 'open' | 'invite' | 'closed' = 'open';
  @IsOptional() @IsString() SMTP_URL?: string;
  @IsOptional() @IsString() MAIL_FROM?: string;
  @IsOptional() @IsString() S3_BUCKET?: string;
  @IsOptional() @IsString() S3_REGION?: string;
  @IsOptional() @IsString() S3_ENDPOINT?: string;
  /** Where browsers reach the bucket, for signed URLs, when the service reaches it elsewhere (MinIO in docker compose). */
  @IsOptional() @IsString() S3_PUBLIC_ENDPOINT?: string;
  @IsOptional() @IsString() S3_ACCESS_KEY_ID?: string;
  @IsOptional() @IsString() S3_SECRET_ACCESS_KEY?: string;
  @Transform(bool) @IsOptional() @IsBoolean() S3_FORCE_PATH_STYLE?: boolean;
  @Transform(int) @IsInt() @Min(1) SERVICE_MAX_FILE_BYTES = 26214400;
  @Transform(list) @IsString({ each: true }) SERVICE_FILE_TYPES: string[] = [
    'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'application/pdf', 'text/plain',
    'text/markdown', 'text/csv', 'application/json', 'application/zip', 'video/mp4', 'video/webm',
  ];
  @IsOptional() @IsString() SERVICE_TRUST_PROXY?: string;
  /** How long a request's body may take to arrive after its start (decisions › Fair use: 30 s); tests shorten it. */
  @Transform(int) @IsInt() @Min(100) @Max(600_000) SERVICE_BODY_TIMEOUT_MS = 30_000;
  @Transform(list) @IsString({ each: true }) SERVICE_WEBHOOK_ALLOW: string[] = [];
  /** Where the embedded PostgreSQL keeps its cluster when DATABASE_URL is unset. */
  @IsString() SERVICE_DATA_DIR = './.data';
  @Transform(int) @IsInt() @Min(1) @Max(65535) EMBEDDED_PG_PORT = 54329;
  /** Bytes of serialised board lists an instance keeps for reuse, whatever the number of projects (decisions.md › Fair use). */
  @Transform(int) @IsInt() @Min(0) SERVICE_BOARD_CACHE_BYTES = 256 * 1024 * 1024;
  /** MCP over HTTP (/api/mcp): how often a long tool call (ask_person) beats the run and reports progress. */
  @Transform(int) @IsInt() @Min(50) SERVICE_MCP_BEAT_MS = 30000;
  /** MCP over HTTP: requests one agent may have open at once on one instance (a further one is 429). */
  @Transform(int) @IsInt() @Min(1) SERVICE_MCP_CONCURRENT = 4;
  @IsIn(['debug', 'info', 'warn', 'error', 'silent']) LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info';

  get production(): boolean {
    return this.NODE_ENV === 'production';
  }

  /** Whether each connection of the pools is a session of its own (no pooler in transaction mode). */
  get sessions(): boolean {
    return this.DATABASE_POOLER === 'none';
  }

  get mailConfigured(): boolean {
    return Boolean(this.SMTP_URL && this.MAIL_FROM);
  }

  /** Fastify's trustProxy: true, a hop count, or a list of addresses and CIDRs. */
  get trustProxy(): boolean | number | string[] {
    const raw = this.SERVICE_TRUST_PROXY?.trim();
    if (!raw || raw === 'false') return false;
    if (raw === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    return raw.split(',').map((s) => s.trim()).filter(Boolean);
  }
}

const KEYS = [
  'DATABASE_URL', 'DATABASE_POOL_SIZE', 'DATABASE_BACKGROUND_POOL_SIZE', 'DATABASE_WAIT_MS', 'DATABASE_STATEMENT_MS',
  'DATABASE_HEAVY_STATEMENT_MS', 'DATABASE_POOLER', 'DATABASE_LISTEN_URL', 'DATABASE_READ_URL', 'DATABASE_READ_POOL_SIZE', 'DATABASE_READ_MAX_LAG_MS', 'PORT', 'HOST', 'NODE_ENV', 'SERVICE_URL', 'SERVICE_SIGNUP', 'SMTP_URL',
  'MAIL_FROM', 'S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE', 'SERVICE_MAX_FILE_BYTES', 'SERVICE_FILE_TYPES', 'SERVICE_TRUST_PROXY', 'SERVICE_BODY_TIMEOUT_MS',
  'SERVICE_WEBHOOK_ALLOW', 'SERVICE_DATA_DIR', 'EMBEDDED_PG_PORT', 'SERVICE_BOARD_CACHE_BYTES', 'SERVICE_MCP_BEAT_MS', 'SERVICE_MCP_CONCURRENT',
  'LOG_LEVEL',
];

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const source = Object.fromEntries(KEYS.filter((k) => env[k] !== undefined && env[k] !== '').map((k) => [k, env[k]]));
  const config = plainToInstance(AppConfig, source, { exposeDefaultValues: true });
  const errors = validateSync(config);
  if (errors.length > 0) {
    // Names only: a value may be a secret.
    throw new Error(`Invalid configuration: ${errors.map((e) => e.property).join(', ')}`);
  }
  // Behind a transaction-mode pooler LISTEN would hear nothing once its transaction ended, and the
  // migrations' session lock could be taken and released on two different server connections.
  if (!config.sessions && !config.DATABASE_LISTEN_URL) {
    throw new Error('Invalid configuration: DATABASE_LISTEN_URL must name a direct connection to PostgreSQL when DATABASE_POOLER is set');
  }
  return config;
}
