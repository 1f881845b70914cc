import { Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { isLoopbackHost, ProviderIdentity, SignOnChecks, SingleSignOn } from '@board/accounts';
import { DomainError, fail } from '@board/kernel';

export interface OpenIdSettings {
  /** The provider's issuer identifier; its metadata is read from `/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the board asks the provider for: who the person is, their email and their name. */
const SCOPE = 'openid email profile';
/** Seconds any request to the provider may take: a sign-in waits for it. */
const TIMEOUT_S = 10;

/**
 * The SingleSignOn port on openid-client (a certified relying party): discovery, PKCE, state,
 * nonce and the ID token's checks are its. The provider's metadata is read on the first sign-in
 * and kept; a failed read is tried again by the next one. HTTPS only, except an issuer on a
 * loopback address (a provider on the same machine, in development and tests).
 */
export class OpenIdSignOn extends SingleSignOn {
  private readonly logger = new Logger('oidc');
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(private readonly settings: OpenIdSettings) {
    super();
  }

  async start(redirectUri: string): Promise<{ url: string; checks: SignOnChecks }> {
    const config = await this.config();
    const checks: SignOnChecks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url: url.href, checks };
  }

  async finish(callbackUrl: URL, checks: SignOnChecks): Promise<ProviderIdentity> {
    const config = await this.config();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims() ?? fail('oidc.provider_refused');
      let claims: Record<string, unknown> = idToken;
      // A provider may keep the email out of the ID token (OpenID Connect puts scope claims in
      // userinfo when an access token is issued): ask userinfo, for the same subject only.
      if (idToken.email === undefined && config.serverMetadata().userinfo_endpoint) {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
      }
      return {
        issuer: idToken.iss,
        subject: idToken.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        // Some providers send the flag as text.
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: typeof claims.name === 'string' ? claims.name : null,
      };
    } catch (error) {
      throw this.refusal(error, 'the sign-in');
    }
  }

  /** The provider's metadata and this client, read once (again after a failure). */
  private config(): Promise<oidc.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = null;
      throw this.refusal(error, 'reading the provider’s metadata', 'oidc.unavailable');
    });
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname) ? [oidc.allowInsecureRequests] : [];
    const found = await oidc.discovery(issuer, this.settings.clientId, undefined, undefined, { execute: insecure, timeout: TIMEOUT_S });
    const metadata = found.serverMetadata();
    // Without a list the provider takes client_secret_basic (RFC 8414); client_secret_post if that is all it takes.
    const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const auth = !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? oidc.ClientSecretPost : oidc.ClientSecretBasic;
    const config = new oidc.Configuration(metadata, this.settings.clientId, undefined, auth(this.settings.clientSecret));
    config.timeout = TIMEOUT_S;
    for (const run of insecure) run(config);
    return config;
  }

  /**
   * A failure as the person is told it: the provider out of reach, or it did not confirm who
   * they are. Operators read what went wrong in the log (never a token: the library's messages
   * name what failed, not the values).
   */
  private refusal(error: unknown, during: string, otherwise: 'oidc.provider_refused' | 'oidc.unavailable' = 'oidc.provider_refused'): DomainError {
    if (error instanceof DomainError) return error;
    const unreachable = isUnreachable(error);
    const e = error as { name?: string; code?: string; message?: string; error?: string; cause?: { code?: string; message?: string } };
    const cause = e?.cause?.code ?? e?.cause?.message;
    this.logger.warn(
      `single sign-on failed during ${during}: ${e?.name ?? 'Error'}${e?.code ? ` ${e.code}` : ''}${e?.error ? ` (${e.error})` : ''}: ${e?.message ?? String(error)}${cause ? ` (${cause})` : ''}`,
    );
    return new DomainError(unreachable ? 'oidc.unavailable' : otherwise);
  }
}

/** A request that never got an answer: no connection, or no answer in time. */
function isUnreachable(error: unknown): boolean {
  for (let e = error as { name?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
  }
  return false;
}
