import { User, UserProps } from '@board/accounts';
import { raw, Sql } from '../sql';

/** `users`: people and agents. The column list every read of a whole user selects (no `SELECT *`). */
export const USER_COLUMNS = raw('id, kind, email, name, color, emoji, password_hash, project_id, created_at, mail_notifications');

/** USER_COLUMNS as a whole user is read: with whether two-step sign-in is on (the secret itself stays in the row). */
export const USER_READ_COLUMNS = raw('id, kind, email, name, color, emoji, password_hash, project_id, created_at, mail_notifications, (totp_secret IS NOT NULL) AS totp');

/** `users u` as a credential's user (`UserView` and kind). */
export const USER_VIEW_COLUMNS = raw('u.id, u.kind, u.email, u.name, u.color, u.emoji');

export interface UserRow {
  id: string;
  kind: 'human' | 'agent';
  email: string | null;
  name: string;
  color: string;
  emoji: string | null;
  password_hash: string | null;
  project_id: string | null;
  created_at: Date;
  mail_notifications: boolean;
  totp: boolean;
}

export const toUser = (r: UserRow): User =>
  User.restore({
    id: r.id,
    kind: r.kind,
    email: r.email,
    name: r.name,
    color: r.color,
    emoji: r.emoji,
    passwordHash: r.password_hash,
    projectId: r.project_id,
    createdAt: r.created_at,
    mailNotifications: r.mail_notifications,
    totp: r.totp,
  } satisfies UserProps);

/** A user of alias `alias` (of a LEFT JOIN) as the people of a read show it; null when there is none. */
export const userJson = (alias: string): Sql =>
  raw(`CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'color', ${alias}.color, 'emoji', ${alias}.emoji) END`);
