import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, fail, IdKind, parseId } from '@board/kernel';
import { ResolvedScope, ResourceKind, ScopeTarget } from '@board/persistence';
import { AppConfig } from '../config/app-config';
import { ACCESS, AccessRule } from './access.decorator';
import { AuthContext, ProjectAccess } from './auth-context';
import { CredentialsService } from './credentials.service';
import { scraperRefusal } from './scraper-bearer';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const RESOURCE_ERRORS: Record<ResourceKind, { idKind: IdKind; notFound: ErrorCode }> = {
  task: { idKind: 'task', notFound: 'task.not_found' },
  restorableTask: { idKind: 'task', notFound: 'task.not_found' },
  property: { idKind: 'property', notFound: 'property.not_found' },
  option: { idKind: 'option', notFound: 'option.not_found' },
  view: { idKind: 'view', notFound: 'view.not_found' },
  comment: { idKind: 'comment', notFound: 'comment.not_found' },
  checklist: { idKind: 'checklist item', notFound: 'checklist.not_found' },
  run: { idKind: 'run', notFound: 'run.not_found' },
  attachment: { idKind: 'attachment', notFound: 'attachment.not_found' },
};

/**
 * The one global guard. Order: credential (401) → cross-site check for cookie writes, and for
 * public writes without an agent token (403) →
 * project id (400) → project check (404 for non-members, 403 for a token of another project)
 * → the route's gate (403 with its sentence).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS, [context.getHandler(), context.getClass()]);
    // Routes must say who may call them; one that forgot is closed rather than open.
    if (!rule) fail('auth.signin_required');
    // The metrics scraper has a bearer of its own: no session or agent token is read for it.
    if (rule.gate === 'scraper') {
      this.admitScraper(context.switchToHttp().getRequest<FastifyRequest>());
      return true;
    }
    // File routes are off, before anything else, while the server has no bucket.
    if (rule.needsBucket && !this.config.S3_BUCKET) fail('attachment.off');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (rule.gate === 'public') {
      // Login, register, logout, forgot and reset have no cookie to check yet (or ignore it), but a
      // forged sign-in or sign-out is still a cross-site write (decisions › Security).
      if (WRITES.has(request.method) && !hasAgentToken(request)) this.checkOrigin(request);
      return true;
    }
    const { read, cookieOnly, target } = credentialLookup(rule, request.params as Record<string, string>);
    const { auth, scope } = await this.credentials.authenticate(request, cookieOnly, target);
    if (auth.via === 'session' && WRITES.has(request.method)) this.checkOrigin(request);
    request.auth = auth;
    const kind = auth.caller.kind;
    switch (rule.gate) {
      case 'person':
      case 'signedIn':
        return true;
      case 'human':
        if (kind !== 'human') fail('gate.human');
        return true;
      case 'agent':
        if (kind !== 'agent') fail('gate.agent');
        return true;
    }
    // Only the gates above skip the target: a project gate always has read one.
    if (!read) fail('auth.signin_required');
    if ('malformed' in read) throw read.malformed;
    const { role } = enter(auth, rule, read.target, scope);
    switch (rule.gate) {
      case 'humanMember':
        if (kind !== 'human') fail('gate.human');
        break;
      case 'agentMember':
        if (kind !== 'agent') fail('gate.agent');
        break;
      // Human first: an agent token asking to hand out access is told it is not a person, before
      // it is told its role is too low (the contract's gate order).
      case 'admin':
        if (kind !== 'human') fail('gate.human');
        if (role !== 'owner' && role !== 'admin') fail('gate.admin', { what: rule.what ?? 'do this' });
        break;
      case 'owner':
        if (kind !== 'human') fail('gate.human');
        if (role !== 'owner') fail('gate.owner', { what: rule.what ?? 'do this' });
        break;
    }
    return true;
  }

  /** Off (404, as an unknown address) without SERVICE_METRICS_TOKEN; else only its bearer passes. */
  private admitScraper(request: FastifyRequest): void {
    const token = this.config.SERVICE_METRICS_TOKEN;
    if (!token) fail('request.not_found');
    const refusal = scraperRefusal(request.headers.authorization, token);
    if (refusal) fail(refusal);
  }

  private checkOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const expected = this.config.SERVICE_URL ? safeOrigin(this.config.SERVICE_URL) : `${request.protocol}://${request.host}`;
    if (safeOrigin(origin) !== expected) fail('auth.cross_site');
  }
}

/** An agent's bearer token (`svc_…`): a request that carries one is not a browser's forgery. */
function hasAgentToken(request: FastifyRequest): boolean {
  const header = request.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+svc_\S*\s*$/i.test(header);
}

/**
 * What a gated route asks the credentials service: a person route reads the cookie only, and a
 * project gate's project (or resource) is resolved by the credential query itself. A malformed
 * id resolves nothing and is refused in its turn, after 401 and the cross-site check. The body
 * check before parsing (http/anonymous-body.ts) asks the same, so the guard reuses its answer.
 */
export function credentialLookup(rule: AccessRule, params: Record<string, string>) {
  const read = OUTSIDE_PROJECTS.has(rule.gate) ? undefined : readTarget(rule, params);
  const target = read && 'target' in read ? read.target : undefined;
  return { read, cookieOnly: rule.gate === 'person', target };
}

/** Gates that work outside any project: nothing to resolve. */
const OUTSIDE_PROJECTS = new Set<AccessRule['gate']>(['public', 'person', 'human', 'agent', 'signedIn', 'scraper']);

/** The project or resource named in the path of a project gate; a malformed id is kept to refuse (400) after 401. */
function readTarget(rule: AccessRule, params: Record<string, string>): { target: ScopeTarget } | { malformed: unknown } {
  try {
    if (rule.resource) return { target: { kind: rule.resource.kind, id: parseId(params[rule.resource.param], RESOURCE_ERRORS[rule.resource.kind].idKind) } };
    return { target: { kind: 'project', id: parseId(params[rule.projectParam ?? 'projectId'], 'project') } };
  } catch (malformed) {
    return { malformed };
  }
}

/**
 * The project check on what the credential query resolved. A project or resource that is not
 * there and one the caller cannot see answer alike (existence never leaks to non-members); a
 * token of another project is told so. Sets and answers the context's project.
 */
function enter(auth: AuthContext, rule: AccessRule, target: ScopeTarget, scope: ResolvedScope | undefined): ProjectAccess {
  const notFound = rule.resource ? RESOURCE_ERRORS[rule.resource.kind].notFound : 'project.not_found';
  if (!scope?.projectId) fail(notFound);
  if (auth.via === 'token' && auth.tokenProjectId !== scope.projectId) fail('auth.token_other_project');
  if (!scope.role) fail(notFound);
  auth.project = { id: scope.projectId, role: scope.role };
  if (rule.resource) auth.resourceId = target.id;
  return auth.project;
}

function safeOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return 'null';
  }
}
