import { Project } from './project';
import { ProjectSeed } from './project-defaults';
import { MemberRef } from './membership';
import { Role } from './role';

export abstract class ProjectRepository {
  abstract findById(id: string): Promise<Project | null>;
  abstract keyTaken(key: string, exceptProjectId?: string): Promise<boolean>;
  /**
   * The first free key of `bases` (see `keyBases`): each base bare, then numbered from 2 while it
   * fits, in that order; null when all are taken. One statement, however many are taken. Inside a
   * transaction it first takes a lock on the first base until the end of it, so creates of one name
   * queue instead of all picking the same key; a clash with another name's key is still possible,
   * and `insert` refuses it with project.key_taken.
   */
  abstract freeKey(bases: string[]): Promise<string | null>;
  /** Inserts the project with its seed (Status, options, main view, card view). Refuses a taken key. */
  abstract insert(project: Project, seed: ProjectSeed): Promise<void>;
  /** Refuses a key another project took meanwhile with project.key_taken. */
  abstract save(project: Project): Promise<void>;
  abstract delete(id: string): Promise<void>;
  /** The type and option ids of a property of the project; null when the project has no such property. */
  abstract propertyOptions(projectId: string, propertyId: string): Promise<{ type: string; optionIds: string[] } | null>;
  abstract hasProperty(projectId: string, match: 'dated_select' | 'iteration'): Promise<boolean>;
  abstract addProperty(projectId: string, property: { id: string; name: string; type: string; config: Record<string, unknown> }): Promise<void>;
}

export interface Membership extends MemberRef {
  projectId: string;
}

export abstract class MemberRepository {
  abstract find(projectId: string, userId: string): Promise<Membership | null>;
  /** Adds a membership at the end of the user's own project order. Refuses a second one with member.already. */
  abstract add(projectId: string, userId: string, role: Role): Promise<void>;
  abstract setRole(projectId: string, userId: string, role: Role): Promise<void>;
  abstract remove(projectId: string, userId: string): Promise<void>;
  /** Moves a project in the user's own order, straight after `afterProjectId` (null: first). */
  abstract place(userId: string, projectId: string, afterProjectId: string | null): Promise<void>;
  abstract addInvite(projectId: string, email: string, role: 'member' | 'admin'): Promise<{ email: string; createdAt: Date }>;
  /** Answers whether there was one. */
  abstract removeInvite(projectId: string, email: string): Promise<boolean>;
  /** Turns every pending invite for the email into a membership of the user. */
  abstract acceptInvites(email: string, userId: string): Promise<void>;
  abstract hasInvite(email: string): Promise<boolean>;
  /** Whether the person is a member of any project that `managerId` neither owns nor administers. */
  abstract inProjectsBeyond(userId: string, managerId: string): Promise<boolean>;
}

export interface AgentTokenRecord {
  id: string;
  projectId: string;
  agentId: string;
  digest: string;
  prefix: string;
}

export abstract class AgentTokenRepository {
  abstract insert(token: AgentTokenRecord): Promise<void>;
  abstract delete(projectId: string, tokenId: string): Promise<boolean>;
  abstract deleteForAgent(projectId: string, agentId: string): Promise<void>;
}
