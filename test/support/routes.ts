/**
 * The answer a route gives, read off the API document's generated types (libs/client/src/schema.d.ts)
 * by the path a test calls: client.get(`/tasks/${id}`) answers the body of `GET /api/tasks/{taskId}`.
 * A path the types cannot read (built with `+`, a query string from a variable, no such route)
 * answers `unknown`.
 */
import type { paths } from '../../libs/client/src/schema';

type Route = keyof paths;
export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** `/api/tasks/{taskId}` → `/api/tasks/${string}`. */
type Pattern<K extends string> = K extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Pattern<Tail>}` : K;

/** The path without its query string. */
type WithoutQuery<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** Every route whose pattern the path fits. */
type Fits<P extends string> = { [K in Route]: `/api${WithoutQuery<P>}` extends Pattern<K> ? K : never }[Route];

/** Of the routes a path fits, the narrowest: `/tasks/x/comments` fits `/tasks/{taskId}` too (its `${string}` takes `x/comments`). */
type Narrowest<K extends Route, All extends Route = K> = K extends Route
  ? [{ [O in Exclude<All, K>]: Pattern<O> extends Pattern<K> ? O : never }[Exclude<All, K>]] extends [never]
    ? K
    : never
  : never;

type SuccessStatus = 200 | 201 | 202 | 204;

/** The JSON body of an operation's successful answers. */
type SuccessBody<Op> = Op extends { responses: infer R }
  ? { [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer T } } ? T : undefined }[keyof R & SuccessStatus]
  : unknown;

type OperationBody<K extends Route, M extends Method> = M extends keyof paths[K] ? ([NonNullable<paths[K][M]>] extends [never] ? unknown : SuccessBody<NonNullable<paths[K][M]>>) : unknown;

/** The body of the successful answer of `method path`, or `unknown` when the path names no route. */
export type RouteAnswer<M extends Method, P extends string> = [Narrowest<Fits<P>>] extends [never] ? unknown : OperationBody<Narrowest<Fits<P>>, M>;

/**
 * The body of an answer to `method path` as the test client types it: the successful answer, which
 * on a refusal is `{ error }` instead (so a test can read `error` without a cast).
 */
export type RouteBody<M extends Method, P extends string> = unknown extends RouteAnswer<M, P> ? unknown : RouteAnswer<M, P> & { error?: string };
