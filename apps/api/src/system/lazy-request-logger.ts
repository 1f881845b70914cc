import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger as Pino } from 'pino';

type LogArgs = Parameters<Pino['info']>;

/**
 * Stands in for a request's child of the service's pino logger and makes the real child on first
 * use. Fastify gives every request a child to bind its id (`reqId`); pino's `child` copies the
 * bindings and sets the level, about 0.03 ms a request (issue 29's profiles), while at production's
 * `warn` almost no request writes a line. A line written through this one is the child's own line.
 */
export class LazyRequestLogger {
  private made?: Pino;

  constructor(
    private readonly parent: Pino,
    private readonly own: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Pino {
    return this.real.child(bindings, options);
  }

  bindings(): Bindings {
    return this.real.bindings();
  }

  /** Whether a real child was made (a line was written or asked for). */
  get madeChild(): boolean {
    return this.made !== undefined;
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.real.level = level;
  }

  /** Answered without making the child while it would have the parent's level. */
  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    if (this.made || (this.options.level !== undefined && this.options.level !== this.parent.level)) return this.real.isLevelEnabled(level);
    return this.parent.isLevelEnabled(level);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }
  error(...args: LogArgs): void {
    this.write('error', args);
  }
  warn(...args: LogArgs): void {
    this.write('warn', args);
  }
  info(...args: LogArgs): void {
    this.write('info', args);
  }
  debug(...args: LogArgs): void {
    this.write('debug', args);
  }
  trace(...args: LogArgs): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: Level, args: LogArgs): void {
    // A line below the level is dropped by pino anyway: no child is made for it.
    if (!this.isLevelEnabled(level)) return;
    (this.real[level] as (...a: LogArgs) => void)(...args);
  }

  private get real(): Pino {
    return (this.made ??= this.parent.child(this.own, this.options));
  }
}

/** Fastify's `childLoggerFactory` for the JSON logs: each request's logger made on first use. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (logger, bindings, options) {
  return new LazyRequestLogger(logger as Pino, bindings, options) as unknown as FastifyBaseLogger;
};
