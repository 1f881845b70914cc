import { SetMetadata } from '@nestjs/common';
import type { ResourceKind } from '@board/persistence';

/**
 * Who may call a route, declared on the route and enforced by the one global AccessGuard.
 * - public: no credential read (register, login, version, health).
 * - person: a signed-in person by session cookie; a bearer token is ignored (auth routes).
 * - human / agent: a person, or an agent token, outside any project.
 * - signedIn: either of them, outside any project (search: each finds what its credential may see).
 * - member / humanMember / admin / owner / agentMember: inside the project named by a path
 *   parameter, after the project check (non-members get 404 Project not found.).
 * - scraper: the operators' metrics scraper, by the bearer SERVICE_METRICS_TOKEN (no session, no
 *   agent token); while that is unset the route answers as if it were not there.
 */
export type Gate = 'public' | 'person' | 'human' | 'agent' | 'signedIn' | 'member' | 'humanMember' | 'admin' | 'owner' | 'agentMember' | 'scraper';

export interface AccessRule {
  gate: Gate;
  /** Path parameter that names the project (project gates). */
  projectParam?: string;
  /** Or: the resource named by a path parameter, whose project is looked up. */
  resource?: ResourceRef;
  /** Words for "Only the owner or an admin can {what}." and "Only the owner can {what}." */
  what?: string;
  /** A file route: 503 while the server has no S3 bucket. */
  needsBucket?: boolean;
}

/** A resource in the path (`:taskId`, `:propertyId`, …) whose project the gate checks. */
export interface ResourceRef {
  kind: ResourceKind;
  param: string;
}

/** Where a project gate finds its project: a `:projectId`-like parameter, or a resource. */
export type Scope = string | ResourceRef;

export const ACCESS = 'board:access';

export const Access = (rule: AccessRule) => SetMetadata(ACCESS, rule);

const scoped = (gate: Gate, scope: Scope, what?: string): AccessRule =>
  typeof scope === 'string' ? { gate, projectParam: scope, what } : { gate, resource: scope, what };

export const Public = () => Access({ gate: 'public' });
export const Person = () => Access({ gate: 'person' });
export const Human = () => Access({ gate: 'human' });
export const Agent = () => Access({ gate: 'agent' });
export const SignedIn = () => Access({ gate: 'signedIn' });
export const Scraper = () => Access({ gate: 'scraper' });
export const Member = (scope: Scope = 'projectId') => Access(scoped('member', scope));
export const HumanMember = (scope: Scope = 'projectId') => Access(scoped('humanMember', scope));
export const Admin = (what: string, scope: Scope = 'projectId') => Access(scoped('admin', scope, what));
export const Owner = (what: string, scope: Scope = 'projectId') => Access(scoped('owner', scope, what));
export const AgentMember = (scope: Scope = 'projectId') => Access(scoped('agentMember', scope));
/** Any member, on a route that needs the S3 bucket (files). */
export const FileMember = (scope: Scope) => Access({ ...scoped('member', scope), needsBucket: true });

/** Shorthands for resource scopes. */
export const TASK: ResourceRef = { kind: 'task', param: 'taskId' };
export const RESTORABLE_TASK: ResourceRef = { kind: 'restorableTask', param: 'taskId' };
export const PROPERTY: ResourceRef = { kind: 'property', param: 'propertyId' };
export const OPTION: ResourceRef = { kind: 'option', param: 'optionId' };
export const VIEW: ResourceRef = { kind: 'view', param: 'viewId' };
export const COMMENT: ResourceRef = { kind: 'comment', param: 'commentId' };
export const CHECKLIST_ITEM: ResourceRef = { kind: 'checklist', param: 'itemId' };
export const RUN: ResourceRef = { kind: 'run', param: 'runId' };
export const ATTACHMENT: ResourceRef = { kind: 'attachment', param: 'attachmentId' };
