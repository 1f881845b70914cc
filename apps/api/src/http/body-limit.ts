/**
 * Request body limits. Every route reads at most 1 MB; a route that takes more says so with
 * `@RouteConfig({ bodyLimit })` and the server's onRoute hook (app.factory.ts) applies it. A
 * larger body is 413 "The request body is too large." before the route runs.
 */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** A Trello board export (import and its preview). */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

/** The route's own limit from its config, if it set one. */
export function routeBodyLimit(config: unknown): number | undefined {
  const limit = (config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
  return typeof limit === 'number' && limit > 0 ? limit : undefined;
}
