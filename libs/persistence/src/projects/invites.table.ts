import { Role } from '@board/projects';
import { raw } from '../sql';

/** `invites`: an invitation as the inviter sees it back. */
export const INVITE_COLUMNS = raw('email, created_at');

export interface InviteRow {
  email: string;
  created_at: Date;
}

export const toInvite = (r: InviteRow): { email: string; createdAt: Date } => ({ email: r.email, createdAt: r.created_at });

/** `invites`: what an invitation grants once its person signs up (the project and the role there). */
export const INVITE_GRANT_COLUMNS = raw('project_id, role');

export interface InviteGrantRow {
  project_id: string;
  role: Role;
}
