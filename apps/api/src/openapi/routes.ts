import 'reflect-metadata';
import { RequestMethod, SetMetadata, type DynamicModule, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA, HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ACCESS, type AccessRule } from '../auth/access.decorator';
import { HEAVY_READ } from '../http/heavy-read.decorator';
import type { HeavyReadClass } from '@board/kernel';

export const OUTSIDE_DOCUMENT = 'board:outside-document';

/**
 * Keeps a route out of the API document: one that speaks another protocol than JSON answers
 * (MCP's JSON-RPC over Streamable HTTP). test/contract/openapi.test.ts lists it with the reason.
 */
export const OutsideDocument = (reason: string): MethodDecorator => SetMetadata(OUTSIDE_DOCUMENT, reason);

/** One route of the service as its decorators declare it. */
export interface RouteInfo {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, e.g. `/api/tasks/{taskId}`. */
  path: string;
  /** Fastify path, e.g. `/api/tasks/:taskId`. */
  fastifyPath: string;
  pathParams: string[];
  access: AccessRule | undefined;
  /** The status of a success (`@HttpCode`, else Nest's default: 201 for POST, 200 otherwise). */
  status: number;
  body?: Type<unknown>;
  query?: Type<unknown>;
  /** Single query parameters read by name (`@Query('q')`), documented as optional text. */
  queryNames: string[];
  controller: string;
  handler: string;
  /** The heavy-read class a route declares (`@HeavyRead`): it may answer 429 for a caller's slots. */
  heavy?: HeavyReadClass;
}

const METHODS: Partial<Record<RequestMethod, RouteInfo['method']>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

/** Route-argument kinds of Nest (`RouteParamtypes`): the ones that carry a DTO. */
const BODY = 3;
const QUERY = 4;

/** Every controller of a module tree (static `@Module` metadata and dynamic module objects). */
export function controllersOf(root: DynamicModule | Type<unknown>): Type<unknown>[] {
  const seen = new Set<unknown>();
  const found: Type<unknown>[] = [];
  const visit = (entry: unknown) => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    const dynamic = typeof entry === 'object' ? (entry as DynamicModule) : undefined;
    const type = (dynamic ? dynamic.module : entry) as Type<unknown>;
    const controllers = [
      ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, type) as Type<unknown>[] | undefined) ?? []),
      ...(dynamic?.controllers ?? []),
    ];
    for (const c of controllers) if (!found.includes(c)) found.push(c);
    const imports = [...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) as unknown[] | undefined) ?? []), ...(dynamic?.imports ?? [])];
    for (const i of imports) visit(i);
    if (dynamic && type !== entry) visit(type);
  };
  visit(root);
  return found;
}

const join = (...parts: string[]) => '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).join('/');

/** The routes the controllers declare, under the global prefix. */
export function routesOf(controllers: Type<unknown>[], prefix = 'api'): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const controller of controllers) {
    const base = ([] as string[]).concat((Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined) ?? '')[0];
    const proto = controller.prototype as Record<string, unknown>;
    for (const handler of Object.getOwnPropertyNames(proto)) {
      const fn = proto[handler];
      if (handler === 'constructor' || typeof fn !== 'function') continue;
      const verb = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
      const sub = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
      if (verb === undefined || sub === undefined || Reflect.getMetadata(OUTSIDE_DOCUMENT, fn)) continue;
      const method = METHODS[verb];
      // Another verb (ALL, HEAD, …) is left out; the route-table test then names the route.
      if (!method) continue;
      const fastifyPath = join(prefix, base, ([] as string[]).concat(sub)[0]);
      const pathParams = [...fastifyPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, { index: number; data?: unknown }>;
      const types = (Reflect.getMetadata('design:paramtypes', proto, handler) ?? []) as unknown[];
      const dtoOf = (kind: number): Type<unknown> | undefined => {
        const key = Object.keys(args).find((k) => k.split(':')[0] === String(kind));
        const type = key === undefined ? undefined : types[args[key].index];
        return typeof type === 'function' && type !== Object && type !== String ? (type as Type<unknown>) : undefined;
      };
      routes.push({
        method,
        path: fastifyPath.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => `{${name}}`),
        fastifyPath,
        pathParams,
        access: (Reflect.getMetadata(ACCESS, fn) ?? Reflect.getMetadata(ACCESS, controller)) as AccessRule | undefined,
        status: (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (method === 'post' ? 201 : 200),
        body: dtoOf(BODY),
        query: dtoOf(QUERY),
        queryNames: Object.entries(args)
          .filter(([k, a]) => k.split(':')[0] === String(QUERY) && typeof a.data === 'string')
          .sort(([, a], [, b]) => a.index - b.index)
          .map(([, a]) => a.data as string),
        controller: controller.name,
        handler,
        heavy: Reflect.getMetadata(HEAVY_READ, fn) as HeavyReadClass | undefined,
      });
    }
  }
  return routes;
}
