import { DomainError } from '@board/kernel';
import { isLoopbackHost, issuerAllowed, nameOfIdentity, ProviderIdentity, verifiedEmailOf } from './single-sign-on';

const identity = (more: Partial<ProviderIdentity>): ProviderIdentity => ({ issuer: 'https://id.example.com', subject: 's', email: 'ann@example.com', emailVerified: true, name: null, ...more });
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as DomainError).code;
  }
  return null;
};

describe('single sign-on rules', () => {
  it('matches and registers by a verified email only, in its stored form', () => {
    expect(verifiedEmailOf(identity({ email: ' ANN@Example.COM ' }))).toBe('ann@example.com');
    expect(codeOf(() => verifiedEmailOf(identity({ emailVerified: false })))).toBe('oidc.email_unverified');
    expect(codeOf(() => verifiedEmailOf(identity({ email: null })))).toBe('oidc.email_unverified');
    expect(codeOf(() => verifiedEmailOf(identity({ email: 'no at sign' })))).toBe('account.email_invalid');
  });

  it('names a new account by the provider’s name made storable, else the email’s first part', () => {
    expect(nameOfIdentity(identity({ name: ' Ann\tLee\u0000 ' }), 'ann@example.com')).toBe('Ann Lee');
    expect([...nameOfIdentity(identity({ name: '😀'.repeat(90) }), 'ann@example.com')]).toHaveLength(80);
    expect(nameOfIdentity(identity({ name: '\n' }), 'ann.lee@example.com')).toBe('ann.lee');
  });

  it('takes an issuer over HTTPS, or plain HTTP on this machine only', () => {
    expect(['https://id.example.com', 'http://localhost:8080', 'http://127.0.0.1:9000/x', 'http://[::1]:9000', 'http://id.localhost'].map(issuerAllowed)).toEqual([true, true, true, true, true]);
    expect(['http://id.example.com', 'http://10.0.0.1', 'ftp://id.example.com', 'nonsense'].map(issuerAllowed)).toEqual([false, false, false, false]);
    expect(isLoopbackHost('127.0.0.1.example.com')).toBe(false);
  });
});
