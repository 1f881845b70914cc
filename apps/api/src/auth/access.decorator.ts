import { SetMetadata } from '@nestjs/common';

/**
 * Who may call a route, declared on the route and enforced by the one global AccessGuard.
 * - public: no credential read (register, login, version, health).
 * - person: a signed-in person by session cookie; a bearer token is ignored (auth routes).
 * - human / agent: a person, or an agent token, outside any project.
 * - member / humanMember / admin / owner / agentMember: inside the project named by a path
 *   parameter, after the project check (non-members get 404 Project not found.).
 */
export type Gate = 'public' | 'person' | 'human' | 'agent' | 'member' | 'humanMember' | 'admin' | 'owner' | 'agentMember';

export interface AccessRule {
  gate: Gate;
  /** Path parameter that names the project (project gates). */
  projectParam?: string;
  /** Words for "Only the owner or an admin can {what}." and "Only the owner can {what}." */
  what?: string;
}

export const ACCESS = 'board:access';

export const Access = (rule: AccessRule) => SetMetadata(ACCESS, rule);

export const Public = () => Access({ gate: 'public' });
export const Person = () => Access({ gate: 'person' });
export const Human = () => Access({ gate: 'human' });
export const Agent = () => Access({ gate: 'agent' });
export const Member = (projectParam = 'projectId') => Access({ gate: 'member', projectParam });
export const HumanMember = (projectParam = 'projectId') => Access({ gate: 'humanMember', projectParam });
export const Admin = (what: string, projectParam = 'projectId') => Access({ gate: 'admin', projectParam, what });
export const Owner = (what: string, projectParam = 'projectId') => Access({ gate: 'owner', projectParam, what });
export const AgentMember = (projectParam = 'projectId') => Access({ gate: 'agentMember', projectParam });
