import { plainToInstance, Transform } from 'class-transformer';
import { issuerAllowed } from '@board/accounts';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, validateSync } from 'class-validator';

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
  /**
   * How long an instance reuses a credential check's answer (auth/credential-cache.ts); 0 checks
   * every request in the database. At most 30 s: an agent token's last use is stamped on a miss.
   */
  @Transform(int) @IsInt() @Min(0) @Max(30_000) SERVICE_CREDENTIAL_CACHE_MS = 5000;
  /** MCP over HTTP (/api/mcp): how often a long tool call (ask_person) beats the run and reports progress. */
  @Transform(int) @IsInt() @Min(50) SERVICE_MCP_BEAT_MS = 30000;
  /** MCP over HTTP: requests one agent may have open at once on one instance (a further one is 429). */
  @Transform(int) @IsInt() @Min(1) SERVICE_MCP_CONCURRENT = 4;
  /** Single sign-on with OpenID Connect (extensions.md § 3.2): on when the issuer, client id and secret are all set. */
  /** HTTPS; plain HTTP only on a loopback address (checked by loadConfig). */
  @IsOptional() @IsUrl({ require_tld: false, protocols: ['https', 'http'], require_protocol: true }) SERVICE_OIDC_ISSUER?: string;
  @IsOptional() @IsString() SERVICE_OIDC_CLIENT_ID?: string;
  @IsOptional() @IsString() SERVICE_OIDC_CLIENT_SECRET?: string;
  /** The sign-in button's label. */
  @IsString() @MaxLength(80) SERVICE_OIDC_NAME = 'Single sign-on';
  /** How often an instance tells the others it is alive (docs/operating.md › Running several instances). */
  @Transform(int) @IsInt() @Min(50) @Max(60_000) SERVICE_INSTANCE_BEAT_MS = 1000;
  /**
   * How long an instance passes for alive after its last beat: then another takes over the webhook
   * deliveries, bucket keys and mails it held. At least twice the beat.
   */
  @Transform(int) @IsInt() @Min(100) @Max(600_000) SERVICE_INSTANCE_DEAD_MS = 5000;
  @IsIn(['debug', 'info', 'warn', 'error', 'silent']) LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info';
  /** `json` (one object per line) or `pretty` (lines for a person); unset, JSON in production and pretty elsewhere. */
  @IsOptional() @IsIn(['json', 'pretty']) LOG_FORMAT?: 'json' | 'pretty';
  /**
   * Turns on `GET /api/metrics` for a scraper that sends it as its bearer; unset, the route is not
   * there (404). At least 16 visible ASCII characters, so a guessable word is refused at start.
   */
  @IsOptional() @Matches(/^[\x21-\x7e]{16,512}$/) SERVICE_METRICS_TOKEN?: string;

  get production(): boolean {
    return this.NODE_ENV === 'production';
  }

  /** Whether each connection of the pools is a session of its own (no pooler in transaction mode). */
  get sessions(): boolean {
    return this.DATABASE_POOLER === 'none';
  }

  /** Log lines as JSON objects (LOG_FORMAT, else NODE_ENV=production). */
  get jsonLogs(): boolean {
    return this.LOG_FORMAT ? this.LOG_FORMAT === 'json' : this.production;
  }

  get mailConfigured(): boolean {
    return Boolean(this.SMTP_URL && this.MAIL_FROM);
  }

  /** Single sign-on's settings when all three are set, else null (off). */
  get oidc(): OidcSettings | null {
    const { SERVICE_OIDC_ISSUER: issuer, SERVICE_OIDC_CLIENT_ID: clientId, SERVICE_OIDC_CLIENT_SECRET: clientSecret } = this;
    return issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, name: this.SERVICE_OIDC_NAME } : null;
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

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's label. */
  name: string;
}

/** Single sign-on is all three or none: one or two of them is a half-made setting, refused at start. */
const OIDC_KEYS = ['SERVICE_OIDC_ISSUER', 'SERVICE_OIDC_CLIENT_ID', 'SERVICE_OIDC_CLIENT_SECRET'] as const;

const KEYS = [
  'DATABASE_URL', 'DATABASE_POOL_SIZE', 'DATABASE_BACKGROUND_POOL_SIZE', 'DATABASE_WAIT_MS', 'DATABASE_STATEMENT_MS',
  'DATABASE_HEAVY_STATEMENT_MS', 'DATABASE_POOLER', 'DATABASE_LISTEN_URL', 'DATABASE_READ_URL', 'DATABASE_READ_POOL_SIZE', 'DATABASE_READ_MAX_LAG_MS', 'PORT', 'HOST', 'NODE_ENV', 'SERVICE_URL', 'SERVICE_SIGNUP', 'SMTP_URL',
  'MAIL_FROM', 'S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE', 'SERVICE_MAX_FILE_BYTES', 'SERVICE_FILE_TYPES', 'SERVICE_TRUST_PROXY', 'SERVICE_BODY_TIMEOUT_MS',
  'SERVICE_WEBHOOK_ALLOW', 'SERVICE_DATA_DIR', 'EMBEDDED_PG_PORT', 'SERVICE_BOARD_CACHE_BYTES', 'SERVICE_CREDENTIAL_CACHE_MS', 'SERVICE_MCP_BEAT_MS', 'SERVICE_MCP_CONCURRENT',
  'SERVICE_OIDC_ISSUER', 'SERVICE_OIDC_CLIENT_ID', 'SERVICE_OIDC_CLIENT_SECRET', 'SERVICE_OIDC_NAME', 'SERVICE_INSTANCE_BEAT_MS', 'SERVICE_INSTANCE_DEAD_MS',
  'LOG_LEVEL', 'LOG_FORMAT', 'SERVICE_METRICS_TOKEN',
];

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const source = Object.fromEntries(KEYS.filter((k) => env[k] !== undefined && env[k] !== '').map((k) => [k, env[k]]));
  const config = plainToInstance(AppConfig, source, { exposeDefaultValues: true });
  const names = validateSync(config).map((e) => e.property);
  const oidcSet = OIDC_KEYS.filter((k) => source[k] !== undefined);
  if (oidcSet.length > 0 && oidcSet.length < OIDC_KEYS.length) names.push(...OIDC_KEYS.filter((k) => !oidcSet.includes(k)));
  if (config.SERVICE_OIDC_ISSUER && !names.includes('SERVICE_OIDC_ISSUER') && !issuerAllowed(config.SERVICE_OIDC_ISSUER)) names.push('SERVICE_OIDC_ISSUER');
  // A window of less than two beats would take an instance for dead after one late beat.
  if (names.length === 0 && config.SERVICE_INSTANCE_DEAD_MS < 2 * config.SERVICE_INSTANCE_BEAT_MS) names.push('SERVICE_INSTANCE_DEAD_MS');
  if (names.length > 0) {
    // Names only: a value may be a secret.
    throw new Error(`Invalid configuration: ${names.join(', ')}`);
  }
  // Behind a transaction-mode pooler LISTEN would hear nothing once its transaction ended, and the
  // migrations' session lock could be taken and released on two different server connections.
  if (!config.sessions && !config.DATABASE_LISTEN_URL) {
    throw new Error('Invalid configuration: DATABASE_LISTEN_URL must name a direct connection to PostgreSQL when DATABASE_POOLER is set');
  }
  return config;
}
