import { fail, readText } from '@board/kernel';

export const EMAIL_MAX = 200;
// Deliberately loose: something@something.tld, no spaces. Mail delivery is the real test.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed, at most 200 characters, shaped like an address; kept lower-cased so lookups ignore case. */
export function readEmail(value: unknown): string {
  const email = readText(value, 'email', { max: EMAIL_MAX, required: true })!;
  if (!EMAIL.test(email)) fail('account.email_invalid');
  return email.toLowerCase();
}
