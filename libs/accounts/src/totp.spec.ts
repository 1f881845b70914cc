import { acceptedStep as acceptedCode, codeAt, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, otpauthUrl, readSecondStepCode, stepAt, TOTP_PERIOD_S } from './totp';

/** A code as the request DTO reads it, then judged. */
const acceptedStep = (secret: string, sent: unknown, at: Date, usedStep: number | null) => acceptedCode(secret, readSecondStepCode(sent), at, usedStep);

describe('two-step sign-in codes (RFC 6238)', () => {
  const secret = newTotpSecret();
  const at = new Date('2026-11-26T12:00:10Z');
  const step = (n: number) => new Date(at.getTime() + n * TOTP_PERIOD_S * 1000);

  it('matches the RFC 6238 SHA-1 test vector', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits); 6 digits: 287082.
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(codeAt(rfcSecret, new Date(59_000))).toBe('287082');
    expect(acceptedStep(rfcSecret, '287082', new Date(59_000), null)).toBe(1);
  });

  it('accepts the current code and one step of drift either way, nothing further', () => {
    expect(acceptedStep(secret, codeAt(secret, at), at, null)).toBe(stepAt(at));
    expect(acceptedStep(secret, codeAt(secret, step(-1)), at, null)).toBe(stepAt(at) - 1);
    expect(acceptedStep(secret, codeAt(secret, step(1)), at, null)).toBe(stepAt(at) + 1);
    expect(acceptedStep(secret, codeAt(secret, step(-2)), at, null)).toBeNull();
    expect(acceptedStep(secret, codeAt(secret, step(2)), at, null)).toBeNull();
  });

  it('accepts a code once: not again, and no older one after it', () => {
    const used = acceptedStep(secret, codeAt(secret, at), at, null);
    expect(used).not.toBeNull();
    expect(acceptedStep(secret, codeAt(secret, at), at, used)).toBeNull();
    expect(acceptedStep(secret, codeAt(secret, step(-1)), at, used)).toBeNull();
    expect(acceptedStep(secret, codeAt(secret, step(1)), at, used)).toBe(stepAt(at) + 1);
  });

  it('reads nothing sent as none, and anything else as what it can stand for', () => {
    for (const none of [undefined, null, '']) expect(readSecondStepCode(none)).toBeNull();
    expect(readSecondStepCode(' 123456 ')).toEqual({ digits: '123456', recovery: null });
    expect(readSecondStepCode(123456)).toEqual({ digits: null, recovery: null });
    expect(readSecondStepCode('ABCDE-FGHIJ')).toEqual({ digits: null, recovery: 'abcde-fghij' });
  });

  it('refuses what is not six digits', () => {
    for (const bad of [undefined, 123456, '12345', '1234567', 'abcdef', '']) expect(acceptedStep(secret, bad, at, null)).toBeNull();
  });

  it('writes an otpauth URL an app reads', () => {
    const url = new URL(otpauthUrl(secret, 'ann@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
  });

  it('makes ten distinct recovery codes, read back whatever the case and dashes', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(normalizeRecoveryCode(` ${codes[0].toUpperCase().replace('-', '')} `)).toBe(codes[0]);
    expect(normalizeRecoveryCode('123456')).toBeNull();
  });
});
