import { charLength, fail, readText } from '@board/kernel';

export const EMAIL_MAX = 200;

/**
 * An email as people read it: trimmed, lower-cased and in Unicode NFKC form, so a fullwidth
 * `ａlice`, `ALICE` and a composed or decomposed `á` each name one address. NFKC runs on both
 * sides of the lower-casing: a compatibility letter may fold to a capital (`ℌ` → `H`), and a
 * lower-cased letter may leave NFKC form (`İ` → `i̇`); applying it again is then a no-op.
 * Used on every email that is stored or compared; it refuses nothing (see readEmail).
 */
export function normalizeEmail(value: string): string {
  return value.trim().normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}

/** Whitespace, control and invisible format characters (zero-width spaces and joiners, bidi marks). */
const INVISIBLE = /[\s\p{Z}\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u;
/** Characters an address would need quoting for; refused outright. */
const SPECIAL = /[<>()[\]\\,;:"]/;
/** One label of a host name: letters (any script), marks, digits and inner hyphens, 1–63 characters. */
const LABEL = /^[\p{L}\p{Nd}](?:[\p{L}\p{M}\p{Nd}-]*[\p{L}\p{M}\p{Nd}])?$/u;

/**
 * The decided shape (decisions › Security): one `@`, both parts non-empty, no whitespace,
 * control or invisible characters, none of `<>()[]\,;:"`, and a domain that is a dotted host
 * name (labels of 1–63 letters, digits or hyphens, none starting or ending with a hyphen, no
 * trailing dot). Takes a normalised email.
 */
export function looksLikeEmail(email: string): boolean {
  const parts = email.split('@');
  if (parts.length !== 2) return false;
  const [local, domain] = parts;
  if (!local || !domain) return false;
  if (INVISIBLE.test(email) || SPECIAL.test(email)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => charLength(label) <= 63 && LABEL.test(label));
}

/**
 * Required, at most 200 characters, normalised (normalizeEmail) and shaped like an address
 * (looksLikeEmail), else `That email address does not look correct.`
 */
export function readEmail(value: unknown): string {
  const email = normalizeEmail(readText(value, 'email', { max: EMAIL_MAX, required: true }));
  // NFKC may lengthen a string (a ligature becomes its letters): the stored form is what counts.
  if (charLength(email) > EMAIL_MAX) fail('text.too_long', { field: 'Email', max: EMAIL_MAX });
  if (!looksLikeEmail(email)) fail('account.email_invalid');
  return email;
}

/**
 * An email typed to sign in: normalised but not judged, so an account stored before the rules
 * tightened still signs in with the address it has. Empty for anything that is not text.
 */
export const signInEmail = (value: unknown): string => (typeof value === 'string' ? normalizeEmail(value) : '');
