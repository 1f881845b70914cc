import { pgSafeText } from '@board/kernel';

/** What a person's security log records (extensions.md § 3.3). */
export const SECURITY_KINDS = [
  'signed_in', 'sign_in_failed', 'signed_out', 'password_changed', 'password_reset',
  'totp_on', 'totp_off', 'recovery_code_used', 'sessions_ended', 'oidc_linked',
] as const;

export type SecurityKind = (typeof SECURITY_KINDS)[number];

/** Events a person reads back: their last 100, newest first. */
export const SECURITY_EVENTS_SHOWN = 100;
/** A user agent is kept to this many characters: it is the client's text, not ours to store whole. */
export const USER_AGENT_MAX = 200;

export interface SecurityEvent {
  at: Date;
  kind: SecurityKind;
  ip: string;
  userAgent: string;
}

/** A user agent as stored: at most USER_AGENT_MAX characters (whole code points), no NUL. */
export function cutUserAgent(value: unknown): string {
  if (typeof value !== 'string') return '';
  // PostgreSQL refuses NUL and lone surrogates in text: a crafted header must not fail the sign-in.
  const clean = pgSafeText(value);
  return [...clean].slice(0, USER_AGENT_MAX).join('');
}

/**
 * A person's security log. Each person keeps only their newest events (the adapter trims in the
 * same statement that records), so a stream of failed sign-ins cannot grow the table without end.
 */
export abstract class SecurityLog {
  abstract append(userId: string, event: SecurityEvent): Promise<void>;
  abstract recent(userId: string, limit: number): Promise<SecurityEvent[]>;
}
