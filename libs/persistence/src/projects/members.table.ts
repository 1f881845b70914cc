import { Membership, Role } from '@board/projects';
import { raw } from '../sql';

/** `members m` joined to its `users u`: the role and the kind of member every access check reads. */
export const MEMBERSHIP_COLUMNS = raw('m.role, u.kind');

export interface MembershipRow {
  role: Role;
  kind: 'human' | 'agent';
}

export const toMembership = (projectId: string, userId: string, r: MembershipRow): Membership => ({ projectId, userId, role: r.role, kind: r.kind });

/** `members m` joined to its `users u`: a member as the project's pages show it. */
export const MEMBER_VIEW_COLUMNS = raw('u.id, u.name, u.email, u.color, u.emoji, m.role, u.kind');

/** `members`: where a project sits in its member's own order of their projects. */
export const MEMBER_PLACE_COLUMNS = raw('project_id, position');

export interface MemberPlaceRow {
  project_id: string;
  /** A rank: compare with `COLLATE "C"`. */
  position: string;
}
