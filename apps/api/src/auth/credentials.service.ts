import { Injectable } from '@nestjs/common';
import { AGENT_TOKEN_PREFIX, digestOf } from '@board/accounts';
import { Clock, DomainError, fail } from '@board/kernel';
import { CredentialQuery, ResolvedScope, ScopeTarget } from '@board/persistence';
import type { FastifyRequest } from 'fastify';
import { AuthContext, SessionAuth, TokenAuth } from './auth-context';
import { readSessionCookie } from './cookies';
import { CredentialCache } from './credential-cache';

/** The caller, and with a target the target's project and the caller's role there. */
export interface Authenticated<A extends AuthContext = AuthContext> {
  auth: A;
  scope?: ResolvedScope;
}

/** Turns the request's credential into a caller: an agent token first, else the session cookie. */
@Injectable()
export class CredentialsService {
  /** This request's lookup, while the request lives (nothing outlives it). */
  private readonly asked = new WeakMap<FastifyRequest, { key: string; answer: Promise<Authenticated> }>();

  constructor(
    private readonly credentials: CredentialQuery,
    private readonly clock: Clock,
    private readonly cache: CredentialCache,
  ) {}

  /**
   * The caller; with a `target` (the project a route works in, or a resource of it) the same
   * query also answers that project and the caller's role there, in `scope`.
   */
  authenticate(request: FastifyRequest, cookieOnly: boolean, target?: ScopeTarget): Promise<Authenticated> {
    // Asked twice for one request (the body check before parsing, then the guard), the lookup
    // runs once: a large body costs no extra statement.
    const key = `${cookieOnly}:${target?.kind ?? ''}:${target?.id ?? ''}`;
    const earlier = this.asked.get(request);
    if (earlier?.key === key) return earlier.answer;
    const answer = this.lookUp(request, cookieOnly, target);
    this.asked.set(request, { key, answer });
    return answer;
  }

  private async lookUp(request: FastifyRequest, cookieOnly: boolean, target?: ScopeTarget): Promise<Authenticated> {
    if (!cookieOnly) {
      const bearer = bearerToken(request);
      // A bearer value without the prefix is not ours (a proxy's, say): ignore it, try the cookie.
      if (bearer?.startsWith(AGENT_TOKEN_PREFIX)) return this.fromToken(bearer, target);
    }
    const context = await this.fromSession(request, target);
    if (!context) fail('auth.signin_required');
    return context;
  }

  /**
   * The 401 the guard would answer this request (its credential checked for real, by the lookup
   * the guard then reuses), or null when it carries a valid one. For the body check before
   * parsing (http/anonymous-body.ts), and only for bodies over 64 KB.
   */
  async refusalOf(request: FastifyRequest, cookieOnly: boolean, target?: ScopeTarget): Promise<DomainError | null> {
    try {
      await this.authenticate(request, cookieOnly, target);
      return null;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }

  /** The signed-in person behind the cookie, or null (no cookie, unknown or expired session). */
  async fromSession(request: FastifyRequest, target?: ScopeTarget): Promise<Authenticated<SessionAuth> | null> {
    const sessionId = readSessionCookie(request);
    if (!sessionId) return null;
    const digest = digestOf(sessionId);
    const person = await this.cache.answer(
      'session',
      digest,
      target,
      () => this.credentials.personBySession(digest, this.clock.now(), target),
      (p) => p.expiresAt,
    );
    if (!person) return null;
    const { id, email, name, color, emoji, scope, expiresAt } = person;
    return { auth: { caller: { id, email, name, color, emoji, kind: 'human' }, via: 'session', sessionDigest: digest, sessionExpiresAt: expiresAt }, scope };
  }

  private async fromToken(token: string, target?: ScopeTarget): Promise<Authenticated<TokenAuth>> {
    const digest = digestOf(token);
    // A kept answer skips the stamp of the token's use: it is coarse (a minute), and a token in
    // use misses at least once per SERVICE_CREDENTIAL_CACHE_MS (at most 30 s).
    const agent = await this.cache.answer('token', digest, target, () => this.credentials.agentByToken(digest, this.clock.now(), target));
    if (!agent) fail('auth.token_invalid');
    const { id, email, name, color, emoji, projectId, scope } = agent;
    return { auth: { caller: { id, email, name, color, emoji, kind: 'agent' }, via: 'token', tokenDigest: digest, tokenProjectId: projectId }, scope };
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
