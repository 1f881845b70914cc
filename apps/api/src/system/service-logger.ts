import { ConsoleLogger } from '@nestjs/common';

/**
 * Nest's start-up chatter — a line per module ("dependencies initialized"), per controller and per
 * route ("Mapped {/api/…, GET} route", over a hundred) — buries the one line a person needs (where
 * to go). It is kept, at debug level (LOG_LEVEL=debug shows it); everything else logs as usual.
 */
const STARTUP_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

export class ServiceLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest.length > 0 ? rest[rest.length - 1] : undefined;
    if (typeof context === 'string' && STARTUP_CHATTER.has(context)) {
      this.debug(message, ...rest);
      return;
    }
    super.log(message, ...rest);
  }
}
