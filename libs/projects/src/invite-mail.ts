import { DAY, fail } from '@board/kernel';

/**
 * Invites must not be a way to mail strangers (decisions.md › Fair use): an address gets at most
 * one invite mail per project in a day, and a person sends at most 50 invite mails in a day.
 */
export const INVITE_MAIL_WINDOW_MS = DAY;
export const INVITE_MAILS_PER_SENDER = 50;

/**
 * What the ledger says about one invite mail: `send` (it is counted now), `repeat` (this address
 * had one from this project within the window: no mail, the add answers as before) or `limit`
 * (the sender used up the window; `retryAfterSeconds` until the oldest counted mail leaves it).
 */
export type InviteMailTake = { kind: 'send' } | { kind: 'repeat' } | { kind: 'limit'; retryAfterSeconds: number };

/**
 * The invite mails sent, kept where every instance sees them. `take` decides and counts in one
 * step inside the caller's transaction, holding the address and the sender until it commits, so
 * concurrent adds on any instance cannot all read "49".
 */
export abstract class InviteMailRepository {
  abstract take(mail: { projectId: string; email: string; senderId: string; now: Date }): Promise<InviteMailTake>;
  /** Forgets mails sent before `before` (the retention sweep); answers how many. */
  abstract prune(before: Date): Promise<number>;
}

/** Refuses an add past the sender's daily limit: 429 with the seconds until one more mail is allowed. */
export function assertInviteMailAllowed(take: InviteMailTake): asserts take is Exclude<InviteMailTake, { kind: 'limit' }> {
  if (take.kind === 'limit') fail('invite.too_many', { retryAfter: Math.max(1, take.retryAfterSeconds) });
}

/** The seconds until a counted mail sent at `oldestCounted` leaves the window, at least one. */
export const retryAfterSeconds = (oldestCounted: Date, now: Date): number =>
  Math.max(1, Math.ceil((oldestCounted.getTime() + INVITE_MAIL_WINDOW_MS - now.getTime()) / 1000));
