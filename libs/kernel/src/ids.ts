import { fail } from './domain-error';

export type IdKind =
  | 'task' | 'run' | 'view' | 'project' | 'property' | 'option' | 'comment'
  | 'checklist item' | 'webhook' | 'agent' | 'member' | 'token' | 'user' | 'attachment'
  | 'list' | 'chart' | 'notification';

// Upper case passes; anything around the 36 characters (spaces included) does not.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Checks an id from a path or body and returns it in the lower case the database keeps. */
export function parseId(value: unknown, kind: IdKind): string {
  if (!isUuid(value)) fail('id.invalid', { kind });
  return (value as string).toLowerCase();
}

/**
 * `an` before a vowel sound: "That is not an option id.", "an agent", but "a user" (a leading
 * "u" that sounds like "you" takes `a`).
 */
const VOWEL_SOUND = /^(?:[aeio]|u(?!s|ni))/i;
export const withArticle = (kind: string): string => (VOWEL_SOUND.test(kind) ? `an ${kind}` : `a ${kind}`);
