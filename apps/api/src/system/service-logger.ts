import { ConsoleLogger, LoggerService, LogLevel } from '@nestjs/common';
import pino, { DestinationStream, Logger as Pino } from 'pino';
import type { AppConfig } from '../config/app-config';

/**
 * Nest's start-up chatter — a line per module ("dependencies initialized"), per controller and per
 * route ("Mapped {/api/…, GET} route", over a hundred) — buries the one line a person needs (where
 * to go). It is kept, at debug level (LOG_LEVEL=debug shows it); everything else logs as usual.
 */
const STARTUP_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

export const LEVELS: Record<AppConfig['LOG_LEVEL'], LogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
  silent: [],
};

const lastString = (rest: unknown[]): string | undefined => {
  const last = rest[rest.length - 1];
  return typeof last === 'string' ? last : undefined;
};

/** Lines for a person (development): Nest's own format. */
export class ServiceLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = lastString(rest);
    if (context && STARTUP_CHATTER.has(context)) {
      this.debug(message, ...rest);
      return;
    }
    super.log(message, ...rest);
  }
}

/** Nest's levels as pino's. */
const PINO_LEVEL: Record<LogLevel, pino.Level> = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * One JSON object per line (production): Nest's lines go to the pino logger that Fastify uses too,
 * so a request's lines and the service's share one format. Each line has `time`, `level`, `msg`,
 * the Nest `context`, and (an error's) `stack`.
 */
export class JsonServiceLogger implements LoggerService {
  constructor(readonly pino: Pino) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write(STARTUP_CHATTER.has(lastString(rest) ?? '') ? 'debug' : 'log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest passes `(message, context)`, or for an error `(message, stack, context)`. */
  private write(level: LogLevel, message: unknown, rest: unknown[]): void {
    const context = rest.length > 0 ? lastString(rest) : undefined;
    const stack = level === 'error' || level === 'fatal' ? rest.slice(0, context ? -1 : undefined).find((r) => typeof r === 'string') : undefined;
    const fields = { ...(context ? { context } : {}), ...(stack ? { stack } : {}) };
    if (message instanceof Error) this.pino[PINO_LEVEL[level]]({ ...fields, err: message }, message.message);
    else if (typeof message === 'string') this.pino[PINO_LEVEL[level]](fields, message);
    else this.pino[PINO_LEVEL[level]]({ ...fields, data: message }, '');
  }
}

/** The pino logger of JSON lines; `destination` is where they go (stdout; tests read it there). */
export function jsonLog(level: AppConfig['LOG_LEVEL'], destination: DestinationStream = process.stdout): Pino {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      // `"level":"info"`, not pino's number: read by people and by log shippers alike.
      formatters: { level: (label) => ({ level: label }) },
      // Fastify logs a request only through these: the path without its query string, no headers.
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({ method: req.method, path: req.url?.split('?')[0], reqId: req.id }),
        res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
        err: pino.stdSerializers.err,
      },
      // Belt and braces: a credential never reaches a line, whatever logs an object holding one.
      redact: { paths: ['headers.authorization', 'headers.cookie', 'req.headers.authorization', 'req.headers.cookie', 'authorization', 'cookie'], censor: '[redacted]' },
    },
    destination,
  );
}

/** How this service logs: the Nest logger, and the pino logger when lines are JSON (shared with Fastify). */
export interface ServiceLog {
  nest: LoggerService;
  pino: Pino | null;
}

export function serviceLog(config: Pick<AppConfig, 'LOG_LEVEL' | 'jsonLogs'>, destination?: DestinationStream): ServiceLog {
  if (!config.jsonLogs) return { nest: new ServiceLogger({ logLevels: LEVELS[config.LOG_LEVEL] }), pino: null };
  const log = jsonLog(config.LOG_LEVEL, destination);
  return { nest: new JsonServiceLogger(log), pino: log };
}
