import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ErrorCode, fail, IdKind, parseId } from '@board/kernel';
import { ResolvedScope, ResourceKind, ScopeQueries, ScopeTarget } from '@board/persistence';
import { AppConfig } from '../config/app-config';
import { ACCESS, AccessRule, ResourceRef } from './access.decorator';
import { AuthContext } from './auth-context';
import { CredentialsService } from './credentials.service';

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
};

/**
 * The one global guard. Order: credential (401) → cross-site check for cookie writes (403) →
 * project id (400) → project check (404 for non-members, 403 for a token of another project)
 * → the route's gate (403 with its sentence).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
    private readonly config: AppConfig,
    private readonly scopes: ScopeQueries,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS, [context.getHandler(), context.getClass()]);
    // Routes must say who may call them; one that forgot is closed rather than open.
    if (!rule) fail('auth.signin_required');
    if (rule!.gate === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const params = request.params as Record<string, string>;
    const { scope, ...auth } = await this.credentials.authenticate(request, rule!.gate === 'person', targetOf(rule!, params));
    if (auth.via === 'session' && WRITES.has(request.method)) this.checkOrigin(request);
    request.auth = auth;
    const kind = auth.caller.kind;
    switch (rule!.gate) {
      case 'person':
        return true;
      case 'human':
        if (kind !== 'human') fail('gate.human');
        return true;
      case 'agent':
        if (kind !== 'agent') fail('gate.agent');
        return true;
    }
    if (rule!.resource) await this.enterResource(auth, rule!.resource, params[rule!.resource.param], scope);
    else await this.enterProject(auth, parseId(params[rule!.projectParam ?? 'projectId'], 'project'), scope);
    const role = auth.project!.role;
    switch (rule!.gate) {
      case 'humanMember':
        if (kind !== 'human') fail('gate.human');
        break;
      case 'agentMember':
        if (kind !== 'agent') fail('gate.agent');
        break;
      case 'admin':
        if (role !== 'owner' && role !== 'admin') fail('gate.admin', { what: rule!.what ?? 'do this' });
        if (kind !== 'human') fail('gate.human');
        break;
      case 'owner':
        if (role !== 'owner') fail('gate.owner', { what: rule!.what ?? 'do this' });
        break;
    }
    return true;
  }

  /**
   * Resolves the caller's role in the project; existence is never leaked to non-members.
   * `known` is the answer the credential query already brought (the usual case).
   */
  private async enterProject(auth: AuthContext, projectId: string, known?: ResolvedScope): Promise<void> {
    const scope = known ?? (await this.scopes.resolve({ kind: 'project', id: projectId }, auth.caller.id));
    if (auth.via === 'token' && auth.tokenProjectId !== projectId) {
      if (scope?.projectId) fail('auth.token_other_project');
      fail('project.not_found');
    }
    if (!scope?.role) fail('project.not_found');
    auth.project = { id: projectId, role: scope!.role! };
  }

  /** A resource that is not there and one in a project the caller cannot see answer alike. */
  private async enterResource(auth: AuthContext, ref: ResourceRef, raw: string | undefined, known?: ResolvedScope): Promise<void> {
    const { idKind, notFound } = RESOURCE_ERRORS[ref.kind];
    const id = parseId(raw, idKind);
    const scope = known ?? (await this.scopes.resolve({ kind: ref.kind, id }, auth.caller.id));
    if (!scope?.projectId) fail(notFound);
    if (auth.via === 'token' && auth.tokenProjectId !== scope!.projectId) fail('auth.token_other_project');
    if (!scope!.role) fail(notFound);
    auth.project = { id: scope!.projectId!, role: scope!.role! };
    auth.resourceId = id;
  }

  private checkOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const expected = this.config.SERVICE_URL ? safeOrigin(this.config.SERVICE_URL) : `${request.protocol}://${request.host}`;
    if (safeOrigin(origin) !== expected) fail('auth.cross_site');
  }
}

/**
 * The project a member gate will check, when its id in the path is well formed: the credential
 * query resolves it too. A malformed id resolves nothing here and is refused in its turn (after
 * the credential and cross-site checks), as before.
 */
function targetOf(rule: AccessRule, params: Record<string, string>): ScopeTarget | undefined {
  if (rule.gate === 'public' || rule.gate === 'person' || rule.gate === 'human' || rule.gate === 'agent') return undefined;
  try {
    if (rule.resource) return { kind: rule.resource.kind, id: parseId(params[rule.resource.param], RESOURCE_ERRORS[rule.resource.kind].idKind) };
    return { kind: 'project', id: parseId(params[rule.projectParam ?? 'projectId'], 'project') };
  } catch {
    return undefined;
  }
}

function safeOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return 'null';
  }
}
