import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Role } from '@board/projects';
import type { UserView } from '@board/accounts';

export interface Caller extends UserView {
  kind: 'human' | 'agent';
}

/** What the guard learned about a request: who calls, by which credential, and in which project. */
export interface AuthContext {
  caller: Caller;
  via: 'session' | 'token';
  /** Digest of the session id when signed in by cookie. */
  sessionDigest?: string;
  /** When that session ends (a stream ends with it). */
  sessionExpiresAt?: Date;
  /** Digest of the agent token when called with one (a stream re-checks it while open). */
  tokenDigest?: string;
  /** The one project an agent token belongs to. */
  tokenProjectId?: string;
  /** Set by project gates: the project named in the path and the caller's role there. */
  project?: { id: string; role: Role };
  /** Set by resource gates: the checked id of the resource named in the path (lower case). */
  resourceId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest().auth as AuthContext | undefined;
  if (!auth) throw new Error('Auth used on a public route');
  return auth;
});

/** The project a project gate resolved: `{ id, role }`. */
export const ProjectScope = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const project = (ctx.switchToHttp().getRequest().auth as AuthContext | undefined)?.project;
  if (!project) throw new Error('ProjectScope used on a route without a project gate');
  return project;
});

/** The checked id of the resource a resource gate resolved (`:taskId`, `:propertyId`, …). */
export const ResourceId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const id = (ctx.switchToHttp().getRequest().auth as AuthContext | undefined)?.resourceId;
  if (!id) throw new Error('ResourceId used on a route without a resource gate');
  return id;
});

/** Who writes, for feed lines and stream notices: the caller and the `x-service-client` tag of its tab. */
export interface Writer {
  userId: string;
  kind: 'human' | 'agent';
  name: string;
  role: Role;
  projectId: string;
  clientId: string | null;
}

export const WriterOf = createParamDecorator((_: unknown, ctx: ExecutionContext): Writer => {
  const request = ctx.switchToHttp().getRequest();
  const auth = request.auth as AuthContext | undefined;
  if (!auth?.project) throw new Error('WriterOf used on a route without a project gate');
  return {
    userId: auth.caller.id,
    kind: auth.caller.kind,
    name: auth.caller.name,
    role: auth.project.role,
    projectId: auth.project.id,
    clientId: clientTag(request),
  };
});

/** The writer's `x-service-client` tag (null without one). */
export const ClientId = createParamDecorator((_: unknown, ctx: ExecutionContext): string | null => clientTag(ctx.switchToHttp().getRequest()));

/** 1 to 200 printable ASCII characters (decisions.md › Security › Lengths). */
const CLIENT_TAG = /^[\x20-\x7e]{1,200}$/;

/**
 * The `x-service-client` tag, relayed to every subscriber of the project: anything but 1 to 200
 * printable ASCII characters is ignored (null), and the write goes on.
 */
export function clientTag(request: { headers: Record<string, unknown> }): string | null {
  const tag = request.headers['x-service-client'];
  return typeof tag === 'string' && CLIENT_TAG.test(tag) ? tag : null;
}
