import { fail, parseId } from '@board/kernel';

/** What a person is told of (extensions.md § 2). */
export const NOTIFICATION_KINDS = ['question', 'mention', 'assigned', 'run_ended'] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Kinds that are mailed at once to people who keep mail on. */
export const MAILED_KINDS: readonly NotificationKind[] = ['question', 'mention'];

/** Run statuses whose close tells people (`handed_over`, `stopped`… do not). */
export const ENDING_STATUSES = ['done', 'failed', 'lost'] as const;

/** How long a notification is kept. */
export const NOTIFICATION_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

/** A comment's words in a notification: its first 200 characters. */
export const NOTIFICATION_TEXT_MAX = 200;

/**
 * A notification a write makes, before its people are known: the persistence adapter resolves
 * `recipients: null` to the task's people (humans its person properties name), else the project's
 * owner and admins, and always leaves out agents, non-members and the actor.
 */
export interface NotificationIntent {
  kind: NotificationKind;
  projectId: string;
  taskId: string;
  actorId: string | null;
  /** null: `<status>: <step>` of the run `runId`, read from the run the same write saved. */
  text: string | null;
  runId: string | null;
  recipients: readonly string[] | null;
}

/** A member as mentions see them: only humans can be mentioned. */
export interface Mentionable {
  id: string;
  name: string;
}

/** The first `max` characters (code points, so no surrogate pair is cut in two). */
export function firstCharacters(text: string, max = NOTIFICATION_TEXT_MAX): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** Most notifications one mark may name. */
export const MARK_MAX = 200;

/** The notifications a mark names: a list of at most 200 ids (in lower case); anything else names none. */
export function readMarkIds(value: unknown): string[] {
  if (!Array.isArray(value)) fail('notification.mark_nothing');
  if (value.length > MARK_MAX) fail('notification.mark_too_many');
  return value.map((id: unknown) => parseId(id, 'notification'));
}
