// Resolve the @board/* library aliases against the compiled tree.
import { register } from 'tsconfig-paths';
import { join } from 'node:path';
register({
  baseUrl: join(__dirname, '..', '..', '..'),
  paths: { '@board/*': ['libs/*/src'] },
});

import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { createApp } from './app.factory';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = new Logger('main');
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
  const app = await createApp({ config, databaseUrl });
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.log(`listening on http://${config.HOST}:${config.PORT}`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal}: finishing open requests`);
    await app.close();
    if (stopEmbedded) await stopEmbedded();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  new Logger('main').error(`could not start: ${error?.message ?? error}`);
  process.exit(1);
});
