import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Role } from '@board/projects';
import type { UserView } from '@board/accounts';

/** Who calls, as a credential names them (whether two-step sign-in is on is the account's, not the caller's). */
export interface Caller extends Omit<UserView, 'totp'> {
  kind: 'human' | 'agent';
}

/** The project a project gate resolved and the caller's role there. */
export interface ProjectAccess {
  id: string;
  role: Role;
}

interface AuthBase {
  caller: Caller;
  /** Set by project gates: the project named in the path and the caller's role there. */
  project?: ProjectAccess;
  /** Set by resource gates: the checked id of the resource named in the path (lower case). */
  resourceId?: string;
}

/** A person signed in by cookie. */
export interface SessionAuth extends AuthBase {
  via: 'session';
  /** Digest of the session id. */
  sessionDigest: string;
  /** When that session ends (a stream ends with it). */
  sessionExpiresAt: Date;
  tokenDigest?: undefined;
  tokenProjectId?: undefined;
}

/** An agent called with its token. */
export interface TokenAuth extends AuthBase {
  via: 'token';
  /** Digest of the agent token (a stream re-checks it while open). */
  tokenDigest: string;
  /** The one project the token belongs to. */
  tokenProjectId: string;
  sessionDigest?: undefined;
  sessionExpiresAt?: undefined;
}

/** What the guard learned about a request: who calls, by which credential (`via`), and in which project. */
export type AuthContext = SessionAuth | TokenAuth;

/** The context on a route behind a project gate: the project is there. */
export type ProjectAuthContext = AuthContext & { project: ProjectAccess };

/** The digest of the credential the request came with (session id or agent token). */
export const credentialDigest = (auth: AuthContext): string => (auth.via === 'session' ? auth.sessionDigest : auth.tokenDigest);

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

const authOf = (ctx: ExecutionContext): AuthContext | undefined => ctx.switchToHttp().getRequest().auth as AuthContext | undefined;

export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = authOf(ctx);
  if (!auth) throw new Error('Auth used on a public route');
  return auth;
});

/** The context of a session route (`@Person()`: cookie only, a bearer token is ignored). */
export const BySession = createParamDecorator((_: unknown, ctx: ExecutionContext): SessionAuth => {
  const auth = authOf(ctx);
  if (auth?.via !== 'session') throw new Error('BySession used on a route open to tokens');
  return auth;
});

/** The context of an agent route (`@Agent()`: an agent calls only with its token). */
export const ByToken = createParamDecorator((_: unknown, ctx: ExecutionContext): TokenAuth => {
  const auth = authOf(ctx);
  if (auth?.via !== 'token') throw new Error('ByToken used on a route open to people');
  return auth;
});

/** The context of a route behind a project gate, its project guaranteed. */
export const InProject = createParamDecorator((_: unknown, ctx: ExecutionContext): ProjectAuthContext => {
  const auth = authOf(ctx);
  if (!auth?.project) throw new Error('InProject used on a route without a project gate');
  return { ...auth, project: auth.project };
});

/** The project a project gate resolved: `{ id, role }`. */
export const ProjectScope = createParamDecorator((_: unknown, ctx: ExecutionContext): ProjectAccess => {
  const project = authOf(ctx)?.project;
  if (!project) throw new Error('ProjectScope used on a route without a project gate');
  return project;
});

/** The checked id of the resource a resource gate resolved (`:taskId`, `:propertyId`, …). */
export const ResourceId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const id = authOf(ctx)?.resourceId;
  if (!id) throw new Error('ResourceId used on a route without a resource gate');
  return id;
});

/**
 * The caller inside the project a gate resolved: who they are, their role there and the
 * `x-service-client` tag of their tab (feed lines and stream notices carry it). Used by reads and
 * writes alike.
 */
export interface ProjectCaller {
  userId: string;
  kind: 'human' | 'agent';
  name: string;
  role: Role;
  projectId: string;
  clientId: string | null;
}

export const ProjectCallerOf = createParamDecorator((_: unknown, ctx: ExecutionContext): ProjectCaller => {
  const request = ctx.switchToHttp().getRequest();
  const auth = request.auth as AuthContext | undefined;
  if (!auth?.project) throw new Error('ProjectCallerOf used on a route without a project gate');
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
