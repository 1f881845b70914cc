import { SIGN_ON_LIFETIME_MS, SignOnSeal } from './sign-on-seal';

const checks = { state: 'the-state-sent-out', nonce: 'the-nonce-sent-out', codeVerifier: 'the-verifier-kept-back' };
const at = new Date('2026-03-02T10:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);

describe('the sealed single sign-on checks', () => {
  it('opens what it sealed, within its lifetime, with the same client secret only', () => {
    const sealed = new SignOnSeal('secret one').seal(checks, at);
    for (const secret of Object.values(checks)) expect(sealed).not.toContain(secret);
    expect(new SignOnSeal('secret one').open(sealed, later(SIGN_ON_LIFETIME_MS - 1))).toEqual(checks);
    expect(new SignOnSeal('secret one').open(sealed, later(SIGN_ON_LIFETIME_MS))).toBeNull();
    expect(new SignOnSeal('secret two').open(sealed, at)).toBeNull();
  });

  it('refuses a changed, cut or made-up cookie', () => {
    const seal = new SignOnSeal('secret one');
    const [iv, body, tag] = seal.seal(checks, at).split('.');
    const flip = (part: string) => (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
    for (const forged of [`${iv}.${flip(body)}.${tag}`, `${flip(iv)}.${body}.${tag}`, `${iv}.${body}.${tag.slice(0, 6)}`, `${iv}.${body}`, 'a.b.c', '', undefined]) {
      expect(seal.open(forged, at)).toBeNull();
    }
  });
});
