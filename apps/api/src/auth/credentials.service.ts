import { Injectable } from '@nestjs/common';
import { AGENT_TOKEN_PREFIX, digestOf, SessionRepository, UserRepository } from '@board/accounts';
import { Clock, fail } from '@board/kernel';
import { AgentTokenRepository } from '@board/projects';
import type { FastifyRequest } from 'fastify';
import { AuthContext } from './auth-context';
import { readSessionCookie } from './cookies';

/** Turns the request's credential into a caller: an agent token first, else the session cookie. */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly tokens: AgentTokenRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async authenticate(request: FastifyRequest, cookieOnly: boolean): Promise<AuthContext> {
    if (!cookieOnly) {
      const bearer = bearerToken(request);
      // A bearer value without the prefix is not ours (a proxy's, say): ignore it, try the cookie.
      if (bearer?.startsWith(AGENT_TOKEN_PREFIX)) return this.fromToken(bearer);
    }
    const context = await this.fromSession(request);
    if (!context) fail('auth.signin_required');
    return context!;
  }

  /** The signed-in person behind the cookie, or null (no cookie, unknown or expired session). */
  async fromSession(request: FastifyRequest): Promise<AuthContext | null> {
    const sessionId = readSessionCookie(request);
    if (!sessionId) return null;
    const digest = digestOf(sessionId);
    const session = await this.sessions.findLive(digest, this.clock.now());
    if (!session) return null;
    const user = await this.users.findById(session.userId);
    if (!user || user.isAgent) return null;
    return { caller: { ...user.view, kind: 'human' }, via: 'session', sessionDigest: digest };
  }

  private async fromToken(token: string): Promise<AuthContext> {
    const record = await this.tokens.use(digestOf(token), this.clock.now());
    if (!record) fail('auth.token_invalid');
    const agent = await this.users.findById(record!.agentId);
    if (!agent) fail('auth.token_invalid');
    return { caller: { ...agent!.view, kind: 'agent' }, via: 'token', tokenProjectId: record!.projectId };
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
