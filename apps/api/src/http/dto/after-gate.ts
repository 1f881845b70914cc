import 'reflect-metadata';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { bodyObject } from '../json-body';
import { parseRequest } from './request-dto.pipe';

/** Where a route keeps the DTO of a body or query read after its gate (read by the API document). */
export const AFTER_GATE_BODY = 'board:after-gate-body';
export const AFTER_GATE_QUERY = 'board:after-gate-query';

/**
 * A request body (or query) whose DTO is known at the route but whose checks wait: the contract
 * checks a gate first that only the service can judge (the comment's author, the run's owner, the
 * throttle, a webhook's address checked whole, …). The service calls `read()` after that gate,
 * which raises the DTO's first refusal like the global pipe does.
 */
export class AfterGate<T extends object> {
  constructor(
    readonly dto: new () => T,
    private readonly sent: unknown,
    private readonly kind: 'body' | 'query',
  ) {}

  /** The body as a JSON object: `request.not_json` for anything else (none reads as `{}`). */
  private plain(): Record<string, unknown> {
    return this.kind === 'body' ? bodyObject(this.sent) : ((this.sent ?? {}) as Record<string, unknown>);
  }

  /** Refuses now a body that is not a JSON object; answers itself. */
  readable(): this {
    this.plain();
    return this;
  }

  /** The DTO, checked: its first refusal is raised as the contract's sentence. */
  read(): T {
    return parseRequest(this.dto, this.plain());
  }

  /** One field as sent, before the DTO's checks (a heartbeat's `beat`, an address checked whole first). */
  field(key: keyof T & string): unknown {
    return this.plain()[key];
  }
}

type Options = {
  /**
   * `now` (the default) refuses a body that is not a JSON object when the route is entered, as
   * reading it in the handler did; `later` leaves that to `readable()`/`read()`, for a route that
   * answers a refusal of its own first (closed sign-up).
   */
  json?: 'now' | 'later';
};

const bodyAfterGate = createParamDecorator((data: { dto: new () => object; json: 'now' | 'later' }, ctx: ExecutionContext) => {
  const gated = new AfterGate(data.dto, ctx.switchToHttp().getRequest<{ body?: unknown }>().body, 'body');
  return data.json === 'now' ? gated.readable() : gated;
});

const queryAfterGate = createParamDecorator(
  (dto: new () => object, ctx: ExecutionContext) => new AfterGate(dto, ctx.switchToHttp().getRequest<{ query?: unknown }>().query, 'query'),
);

/** `@BodyAfterGate(EditCommentBody) body: AfterGate<EditCommentBody>`: the body, read by the service after its gate. */
export function BodyAfterGate(dto: new () => object, options: Options = {}): ParameterDecorator {
  const param = bodyAfterGate({ dto, json: options.json ?? 'now' });
  return (target, key, index) => {
    if (key !== undefined) Reflect.defineMetadata(AFTER_GATE_BODY, dto, target, key);
    param(target, key, index);
  };
}

/** `@QueryAfterGate(ChartDataQuery) query: AfterGate<ChartDataQuery>`: the query, read by the service after its gate. */
export function QueryAfterGate(dto: new () => object): ParameterDecorator {
  const param = queryAfterGate(dto);
  return (target, key, index) => {
    if (key !== undefined) Reflect.defineMetadata(AFTER_GATE_QUERY, dto, target, key);
    param(target, key, index);
  };
}
