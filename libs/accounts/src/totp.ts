import { Secret, TOTP } from 'otpauth';
import { randomBytes } from 'node:crypto';

/** RFC 6238 as authenticator apps expect it (extensions.md § 3.1): SHA-1, 6 digits, 30 s. */
export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
const ISSUER = 'Task board';
/** One step of clock drift either way. */
const DRIFT_STEPS = 1;
export const RECOVERY_CODES = 10;

const totp = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_S });

/** A new shared secret, base32 (160 bits, the size RFC 4226 recommends for SHA-1). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URL an authenticator app reads (drawn as a QR code by the page). */
export function otpauthUrl(secret: string, accountLabel: string): string {
  return totp(secret, accountLabel).toString();
}

/** The time step `at` falls in. */
export const stepAt = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_S);

/**
 * A second-step code as sent, read once by its request DTO: null when none was sent (absent, null
 * or empty: a sign-in asks for one), else what it can stand for, six digits and a recovery code
 * as typed (neither: it matches nothing).
 */
export interface SecondStepCode {
  digits: string | null;
  recovery: string | null;
}

export function readSecondStepCode(value: unknown): SecondStepCode | null {
  if (value === undefined || value === null || value === '') return null;
  const digits = typeof value === 'string' && /^\d{6}$/.test(value.trim()) ? value.trim() : null;
  return { digits, recovery: normalizeRecoveryCode(value) };
}

/**
 * The time step a sent code belongs to, or null: six digits that match the secret at `at` or one
 * step either side, and a step later than `usedStep` (a code is accepted once: no replay inside
 * its window, and the code that turned it on counts as used).
 */
export function acceptedStep(secret: string, code: SecondStepCode | null, at: Date, usedStep: number | null): number | null {
  if (!code?.digits) return null;
  const delta = totp(secret).validate({ token: code.digits, timestamp: at.getTime(), window: DRIFT_STEPS });
  if (delta === null) return null;
  const step = stepAt(at) + delta;
  return usedStep !== null && step <= usedStep ? null : step;
}

/** The code of `secret` at `at`: what an authenticator app shows (the tests compute codes with it). */
export function codeAt(secret: string, at: Date): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}

/** Ten recovery codes, shown once: `xxxxx-xxxxx` in lower-case base32 (50 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const text = new Secret({ buffer: randomBytes(7).buffer as ArrayBuffer }).base32.slice(0, 10).toLowerCase();
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** A recovery code as typed: case, spaces and the dash do not matter. */
export function normalizeRecoveryCode(code: unknown): string | null {
  if (typeof code !== 'string') return null;
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z2-7]{10}$/.test(plain) ? `${plain.slice(0, 5)}-${plain.slice(5)}` : null;
}
