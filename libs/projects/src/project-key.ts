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

/**
 * Keys to try for a project named `name`, best first: the initials of a several-word name, or
 * the start of a one-word name, then the same with a number when it is taken elsewhere.
 */
export function keyCandidates(name: string): string[] {
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
  const out = [base];
  for (let n = 2; n < 1000; n++) out.push(`${base}${n}`);
  return out;
}
