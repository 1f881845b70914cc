import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import { Clock, Metrics } from '@board/kernel';
import { createBackgroundPool, createDataSource, createLivenessPool, createReplicaRouter, DatabaseLanes, migrate, openDataSource } from '@board/persistence';
import { AppConfig } from './config/app-config';
import { AppModule } from './app.module';
import { RequestDtoPipe } from './http/dto/request-dto.pipe';
import { ErrorFilter } from './http/error.filter';
import { DEFAULT_BODY_LIMIT, routeBodyLimit } from './http/body-limit';
import { anonymousBodyHooks } from './http/anonymous-body';
import { answerWritePosition } from './http/write-position';
import { bodyDeadline } from './http/body-deadline';
import { CredentialsService } from './auth/credentials.service';
import { controllersOf, routesOf } from './openapi/routes';
import { parseJsonBody } from './http/json-body';
import { cleanParams, parseQueryString } from './http/query-string';
import { MAX_HEADER_BYTES, MAX_PARAM_LENGTH, routerRefusals } from './http/router-refusals';
import { securityHeadersHook } from './http/security-headers';
import { ServiceLog, serviceLog } from './system/service-logger';
import { requestIdOf, requestLogHooks } from './http/request-log';
import { lazyRequestLogger } from './system/lazy-request-logger';
import { SERVICE_VERSION } from './system/version';
import { registerWebPage } from './web/web-page';
import { recordRouteTable, registerApiDocs } from './openapi/api-docs';
import { buildOpenApiDocument } from './openapi/document';

export interface CreateAppOptions {
  config: AppConfig;
  /** Database to use; defaults to config.DATABASE_URL. */
  databaseUrl?: string;
  clock?: Clock;
  /** How to log (main.ts makes it first, for its own lines); made from the config when unset. */
  log?: ServiceLog;
}

/** How often Node looks for requests past their time: often enough that a late one is answered within a second. */
const bodyCheckInterval = (timeoutMs: number) => Math.max(50, Math.min(1000, Math.floor(timeoutMs / 4)));

/** Builds the whole service: pool, migrations (under an advisory lock), Nest on Fastify, HTTP conventions. */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const { config } = options;
  const url = options.databaseUrl ?? config.DATABASE_URL;
  if (!url) throw new Error('No database URL');
  const log = options.log ?? serviceLog(config);
  Logger.overrideLogger(log.nest);
  const dbLogger = new Logger('database');
  const onError = (error: Error) => dbLogger.warn(`connection error: ${error.message}`);
  // Behind a transaction-mode pooler, LISTEN and the migrations (whose lock is a session's) take
  // the direct connection DATABASE_LISTEN_URL names (loadConfig insists on one there).
  const directUrl = config.DATABASE_LISTEN_URL ?? url;
  // Migrations run on connections of their own, without the requests' statement limit: a
  // migration over a big database may well take longer than a request may.
  const migrations = await openDataSource(createDataSource({ url: directUrl, poolSize: 2, applicationName: 'task-board-migrate' }), onError);
  try {
    await migrate(migrations);
  } finally {
    await migrations.destroy();
  }
  // The requests' pool: a connection waited for past DATABASE_WAIT_MS, or a statement past
  // DATABASE_STATEMENT_MS (set at connect, so the hot path pays no round trip; behind a
  // transaction-mode pooler, set by each transaction instead), answers 503.
  const dataSource = createDataSource({
    url,
    poolSize: config.DATABASE_POOL_SIZE,
    waitMs: config.DATABASE_WAIT_MS,
    statementMs: config.sessions ? config.DATABASE_STATEMENT_MS : undefined,
  });
  await openDataSource(dataSource, onError);
  // Read replicas (DATABASE_READ_URL): pools like the requests' one (a replica behind a pooler
  // is assumed to sit behind the same kind), and the primary measured on its direct connection.
  const replicas = createReplicaRouter(
    {
      primaryUrl: directUrl,
      urls: config.DATABASE_READ_URL,
      poolSize: config.DATABASE_READ_POOL_SIZE,
      waitMs: config.DATABASE_WAIT_MS,
      statementMs: config.sessions ? config.DATABASE_STATEMENT_MS : undefined,
      maxLagMs: config.DATABASE_READ_MAX_LAG_MS,
    },
    onError,
  );
  const lanes = new DatabaseLanes(
    createBackgroundPool({ url, size: config.DATABASE_BACKGROUND_POOL_SIZE }, onError),
    config.DATABASE_HEAVY_STATEMENT_MS,
    {
      sessions: config.sessions,
      prepared: config.DATABASE_POOLER !== 'transaction',
      statementMs: config.DATABASE_STATEMENT_MS,
      listenUrl: directUrl,
    },
    // Direct, like LISTEN: a beat must not queue in a pooler behind other clients' transactions.
    createLivenessPool({ url: directUrl, timeoutMs: config.SERVICE_INSTANCE_DEAD_MS }, onError),
    replicas,
  );

  const refusals = routerRefusals(config.production);
  const adapter = new FastifyAdapter({
    trustProxy: config.trustProxy,
    // What the router and Node's parser refuse answers in the envelope (router-refusals.ts).
    http: { maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: bodyCheckInterval(config.SERVICE_BODY_TIMEOUT_MS) },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, querystringParser: parseQueryString },
    frameworkErrors: refusals.frameworkErrors,
    clientErrorHandler: refusals.clientError,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Headers dripped byte by byte are cut at the same time as a body (body-deadline.ts): Node
    // checks its open requests every `connectionsCheckingInterval` and clientError answers 408.
    requestTimeout: config.SERVICE_BODY_TIMEOUT_MS,
    // Open requests finish on shutdown; idle keep-alive sockets are closed.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // JSON lines go through Fastify's own pino logger, whose per-request child adds `reqId`;
    // Fastify's own line per request is off (ours says more, and never the query string), and a
    // request's child logger is made only when the request writes a line (lazy-request-logger.ts).
    ...(log.pino ? { loggerInstance: log.pino, logController: new LogController({ disableRequestLogging: true }), childLoggerFactory: lazyRequestLogger } : {}),
    genReqId: requestIdOf,
  });
  const root = AppModule.forRoot({ config, dataSource, lanes, clock: options.clock });
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    bodyParser: false,
    logger: log.nest,
  });
  app.setGlobalPrefix('api');
  app.useGlobalFilters(new ErrorFilter());
  app.useGlobalPipes(new RequestDtoPipe());

  const fastify = app.getHttpAdapter().getInstance();
  // A route that reads more than the default (the import of a board export) says so in its config.
  fastify.addHook('onRoute', (route) => {
    const limit = routeBodyLimit(route.config);
    if (limit !== undefined) route.bodyLimit = limit;
  });
  // First every answer, a refusal included, gets the request's id, and is counted and logged once sent.
  requestLogHooks(fastify, { json: Boolean(log.pino), metrics: app.get(Metrics) });
  // Then an over-long address is refused before anything else looks at it.
  fastify.addHook('onRequest', refusals.tooLong);
  // Helmet's headers (decisions.md › Security › Headers), set on the raw response as @fastify/helmet did.
  fastify.addHook('onRequest', securityHeadersHook(config.production));
  fastify.removeAllContentTypeParsers();
  // Every body is read as JSON whatever its content type; what does not parse is answered by the route.
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, parseJsonBody(body as string)));
  // While closing, an answer also closes its connection: a keep-alive socket that was busy when
  // the stop began would otherwise hold the server open until its idle timeout.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  // The hooks every request passes through are callback-style (`done`), not async: an async hook
  // costs a promise and a turn of the microtask queue per request.
  fastify.addHook('onRequest', (req, reply, done) => {
    cleanParams(req.params);
    reply.header('x-service-version', SERVICE_VERSION);
    // Every answer may depend on a credential or set one: nothing is kept by caches. A route that
    // may be cached says so itself (the stream: `no-cache, no-transform`).
    reply.header('cache-control', 'no-store');
    done();
  });
  // A body must arrive within SERVICE_BODY_TIMEOUT_MS of its headers (408 otherwise).
  fastify.addHook('onRequest', bodyDeadline(config.SERVICE_BODY_TIMEOUT_MS));
  // A body over 64 KB is read only after its credential (decisions › Fair use), so this runs
  // before anything reads the body; it keeps the guard's refusals and their order.
  const bodyCheck = anonymousBodyHooks({
    rules: new Map(routesOf(controllersOf(root)).map((r) => [`${r.method.toUpperCase()} ${r.fastifyPath}`, r.access])),
    credentials: app.get(CredentialsService),
    bucket: Boolean(config.S3_BUCKET),
  });
  fastify.addHook('onRequest', bodyCheck.onRequest);
  fastify.addHook('preParsing', bodyCheck.preParsing);
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // With read replicas, an answer to a request that wrote says where its writes ended (write-position.ts).
  if (replicas.enabled) fastify.addHook('onSend', answerWritePosition({ maxLagMs: config.DATABASE_READ_MAX_LAG_MS, secure: config.production }));
  // The API document (GET /api/openapi.json) and its browsable docs (/api/docs), built from the
  // controllers (apps/api/src/openapi); the route table is kept for the contract test.
  recordRouteTable(fastify);
  await registerApiDocs(fastify, buildOpenApiDocument(root));
  // The board page at `/` (built from apps/web); the API stays under /api.
  await registerWebPage(fastify, config);
  await app.init();
  return app;
}
