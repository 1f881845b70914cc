import { fail, readText } from '@board/kernel';

export const PROJECT_NAME_MAX = 80;
const KEY = /^[A-Z][A-Z0-9]{1,9}$/;

export function readProjectName(value: unknown, required: true): string;
export function readProjectName(value: unknown, required: boolean): string | undefined;
export function readProjectName(value: unknown, required: boolean): string | undefined {
  return readText(value, 'name', { max: PROJECT_NAME_MAX, required });
}

/** 2 to 10 characters, a letter then letters or digits, upper-cased on the way in. */
export function readProjectKey(value: unknown): string {
  if (typeof value !== 'string') fail('project.key_invalid');
  const key = (value as string).trim().toUpperCase();
  if (!KEY.test(key)) fail('project.key_invalid');
  return key;
}

export const KEY_MAX = 10;

/**
 * The bases a key for a project named `name` is derived from, best first: the initials of a
 * several-word name, or the start of a one-word name (2 to 6 characters); then its first two
 * letters, which leave room for eight digits. Each base is offered bare, then numbered from 2
 * (`TB`, `TB2`, `TB3`, …) while the number fits in the ten characters; the store picks the first
 * free one (`ProjectRepository.freeKey`), so a name shared by thousands still gets a key at once.
 */
export function keyBases(name: string): string[] {
  const words = name
    .normalize('NFKD')
    // Drop the accents NFKD split off, so "Éclair" is one word (ECLA), not "E" and "CLAIR".
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  let base = words.length >= 2 ? words.map((w) => w[0]).join('') : (words[0] ?? '').slice(0, 4);
  base = base.replace(/^[0-9]+/, '');
  if (base.length < 2) base = (base + (words.join('').replace(/^[0-9]+/, '') || 'PR')).slice(0, 4);
  if (base.length < 2) base = 'PR';
  base = base.slice(0, 6);
  return base.length > 2 ? [base, base.slice(0, 2)] : [base];
}

const SPARE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SPARE_CHARS = `${SPARE_LETTERS}0123456789`;

/**
 * A key of other letters, for when every numbered key of every base is taken (over 100 million
 * projects) or creates of the same name keep colliding: a letter and nine letters or digits, drawn
 * by `randomBelow` (36^9 of them, so a clash is retried, never expected).
 */
export function spareKey(randomBelow: (n: number) => number): string {
  let key = SPARE_LETTERS[randomBelow(SPARE_LETTERS.length)];
  while (key.length < KEY_MAX) key += SPARE_CHARS[randomBelow(SPARE_CHARS.length)];
  return key;
}
