// Resolve the @board/* library aliases against the compiled tree.
import { register } from 'tsconfig-paths';
import { join } from 'node:path';
register({
  baseUrl: join(__dirname, '..', '..', '..'),
  paths: { '@board/*': ['libs/*/src'] },
});

import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfig } from './config/app-config';
import { createApp } from './app.factory';
import { openableUrl, readyLine, STOPPED_LINE } from './system/ready-line';
import { ServiceLog, serviceLog } from './system/service-logger';

interface Running {
  app: NestFastifyApplication;
  stopEmbedded?: () => Promise<void>;
}

async function start(config: AppConfig, log: ServiceLog, logger: Logger): Promise<Running> {
  let stopEmbedded: (() => Promise<void>) | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    // Required lazily: a deploy with DATABASE_URL never loads the embedded server.
    const { startEmbeddedPostgres } = await import('@board/persistence');
    const dir = join(config.SERVICE_DATA_DIR, 'postgres');
    logger.log(`DATABASE_URL is unset: starting the embedded PostgreSQL in ${dir} on port ${config.EMBEDDED_PG_PORT}`);
    // The last lines the server printed explain a start that fails; only then are they shown.
    const lines: string[] = [];
    const embedded = await startEmbeddedPostgres(dir, config.EMBEDDED_PG_PORT, (line) => lines.push(line) > 40 && lines.shift(), {
      dataDirChosen: Boolean(process.env.SERVICE_DATA_DIR),
      notice: (line) => logger.log(line),
    }).catch((error: Error) => {
      if (lines.length > 0) logger.error(`the embedded PostgreSQL said:\n${lines.join('\n')}`);
      throw error;
    });
    databaseUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const app = await createApp({ config, databaseUrl, log });
  await app.listen({ port: config.PORT, host: config.HOST });
  return { app, stopEmbedded };
}

async function main(): Promise<void> {
  const config = loadConfig();
  // Made first, so even the lines before the app (the embedded PostgreSQL's) are in the chosen format.
  const log = serviceLog(config);
  Logger.overrideLogger(log.nest);
  const logger = new Logger('main');
  // Shown at every level but silent: these two lines are how a person knows a start or a stop is over.
  const always = log.pino?.child({ context: 'main' }, { level: 'info' });
  const say = (line: string) => config.LOG_LEVEL !== 'silent' && (always ? always.info(line) : process.stdout.write(`${line}\n`));
  const starting = start(config, log, logger);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // A stop asked for during the start waits for it, so nothing is torn down half made (a failed
    // start exits on its own, and the embedded server goes with the process).
    const running = await starting.catch(() => null);
    if (!running) return;
    logger.log(`${signal}: finishing open requests`);
    // The pools and the LISTEN connection close with the app, which answers once the server has
    // closed their connections (DatabaseLifecycle); only then is the embedded server stopped (it
    // runs in a process group of its own, so Ctrl-C reaches this process alone and no connection
    // of ours is cut by the server going away).
    await running.app.close();
    await running.stopEmbedded?.();
    say(STOPPED_LINE);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // A closed terminal: stop the same way rather than leave the embedded server behind.
  process.on('SIGHUP', () => void stop('SIGHUP'));

  const { app } = await starting;
  if (!stopping) say(readyLine(openableUrl(app.getHttpServer().address(), { host: config.HOST, port: config.PORT })));
}

main().catch((error) => {
  new Logger('main').error(`could not start: ${error?.message ?? error}`);
  process.exit(1);
});
