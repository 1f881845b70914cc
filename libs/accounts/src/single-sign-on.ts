import { fail, pgSafeText } from '@board/kernel';
import { readEmail } from './email';
import { NAME_MAX } from './user';

/**
 * Who the OpenID provider says signed in, from an ID token whose signature, issuer, audience,
 * expiry and nonce were checked (and its userinfo, when the token leaves the email out).
 */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  /** As the provider sent it; null when it sent none. */
  email: string | null;
  /** Only `email_verified: true` counts. */
  emailVerified: boolean;
  /** The person's name as the provider knows it, if it said. */
  name: string | null;
}

/** What one sign-in's way back is checked against; made on the way out, kept by the browser. */
export interface SignOnChecks {
  state: string;
  nonce: string;
  /** PKCE: the verifier whose challenge went out with the request. */
  codeVerifier: string;
}

/**
 * Single sign-on with an OpenID Connect provider (extensions.md § 3.2): the authorisation code
 * flow with PKCE, `state` and `nonce`. Refusals are `oidc.*` codes; a provider that cannot be
 * reached is `oidc.unavailable`.
 */
export abstract class SingleSignOn {
  /** Where to send the browser for a new sign-in, and the checks its way back needs. */
  abstract start(redirectUri: string): Promise<{ url: string; checks: SignOnChecks }>;
  /**
   * The way back (`callbackUrl`: the redirect URI with the provider's query): exchanges the code
   * with the verifier and checks the state and the ID token, nonce included.
   */
  abstract finish(callbackUrl: URL, checks: SignOnChecks): Promise<ProviderIdentity>;
}

/** Who an identity of a provider is here: issuer and subject, linked to one account. */
export abstract class LinkedIdentityRepository {
  abstract userOf(issuer: string, subject: string): Promise<string | null>;
  /** Links the identity to the account; an identity linked meanwhile keeps its account. */
  abstract link(issuer: string, subject: string, userId: string, at: Date): Promise<void>;
}

/** `localhost` (and names under it), 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/**
 * An issuer the board may sign in with: HTTPS, or plain HTTP on a loopback address only (a
 * provider on the same machine, in development and tests), since the code, the tokens and the
 * client secret cross that connection.
 */
export function issuerAllowed(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  } catch {
    return false;
  }
}

/**
 * The email an identity may be matched or registered by: only one the provider says it verified
 * (`oidc.email_unverified` otherwise), in the form every stored email has (`account.email_invalid`
 * when it does not look like one).
 */
export function verifiedEmailOf(identity: ProviderIdentity): string {
  if (!identity.email || !identity.emailVerified) fail('oidc.email_unverified');
  return readEmail(identity.email);
}

/**
 * The name a new account takes: the provider's, made storable (no NUL or control characters, at
 * most 80 characters), else the email's part before the `@`.
 */
export function nameOfIdentity(identity: ProviderIdentity, email: string): string {
  const cut = (text: string) => [...pgSafeText(text).replace(/\p{Cc}/gu, ' ').replace(/\s+/g, ' ').trim()].slice(0, NAME_MAX).join('').trim();
  return cut(identity.name ?? '') || cut(email.split('@')[0]) || email.slice(0, NAME_MAX);
}
