import { Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '@board/kernel';
import { createDataSource, migrate, openDataSource } from '@board/persistence';
import { AppConfig } from './config/app-config';
import { AppModule } from './app.module';
import { ErrorFilter } from './http/error.filter';
import { parseJsonBody } from './http/json-body';
import { SERVICE_VERSION } from './system/version';
import { registerWebPage } from './web/web-page';

const LEVELS: Record<AppConfig['LOG_LEVEL'], LogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
  silent: [],
};

export interface CreateAppOptions {
  config: AppConfig;
  /** Database to use; defaults to config.DATABASE_URL. */
  databaseUrl?: string;
  clock?: Clock;
}

/** Builds the whole service: pool, migrations (under an advisory lock), Nest on Fastify, HTTP conventions. */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const { config } = options;
  const url = options.databaseUrl ?? config.DATABASE_URL;
  if (!url) throw new Error('No database URL');
  Logger.overrideLogger(LEVELS[config.LOG_LEVEL]);
  const dbLogger = new Logger('database');
  const dataSource = createDataSource({ url, poolSize: config.DATABASE_POOL_SIZE });
  await openDataSource(dataSource, (error) => dbLogger.warn(`connection error: ${error.message}`));
  try {
    await migrate(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }

  const adapter = new FastifyAdapter({
    trustProxy: config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
    // Open requests finish on shutdown; idle keep-alive sockets are closed.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ config, dataSource, clock: options.clock }), adapter, {
    bodyParser: false,
    logger: LEVELS[config.LOG_LEVEL],
  });
  app.setGlobalPrefix('api');
  app.useGlobalFilters(new ErrorFilter());

  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  // Every body is read as JSON whatever its content type; what does not parse is answered by the route.
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, parseJsonBody(body as string)));
  // While closing, an answer also closes its connection: a keep-alive socket that was busy when
  // the stop began would otherwise hold the server open until its idle timeout.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onRequest', async (_req, reply) => {
    reply.header('x-service-version', SERVICE_VERSION);
  });
  fastify.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  const http = new Logger('http');
  fastify.addHook('onResponse', async (req, reply) => {
    // Path only: query strings, headers and bodies can hold secrets and are never logged.
    http.log(`${req.method} ${req.url.split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms ${req.ip}`);
  });
  // The board page at `/` (built from apps/web); the API stays under /api.
  await registerWebPage(fastify, config);
  await app.init();
  return app;
}
