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
  /** The one project an agent token belongs to. */
  tokenProjectId?: string;
  /** Set by project gates: the project named in the path and the caller's role there. */
  project?: { id: string; role: Role };
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
