import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LinkedIdentityRepository, nameOfIdentity, ProviderIdentity, SingleSignOn, User, UserRepository, verifiedEmailOf } from '@board/accounts';
import { Clock, fail, silent, UnitOfWork } from '@board/kernel';
import { MemberRepository } from '@board/projects';
import { AppConfig } from '../config/app-config';
import { AccountsService } from './accounts.service';
import { SIGN_ON_LIFETIME_MS, SignOnSeal } from './sign-on-seal';

/** Where the provider sends the browser back, under the board's address. */
export const CALLBACK_PATH = '/api/auth/oidc/callback';

export interface SignOnStart {
  /** The provider's authorisation address, with this sign-in's challenge, state and nonce. */
  url: string;
  /** The sealed checks, for the browser's cookie. */
  sealed: string;
  /** The cookie's lifetime, in seconds. */
  seconds: number;
}

export interface SignOnDone {
  userId: string;
  /** The new session id, to go out in the cookie only. */
  sessionId: string;
  /** The identity was linked to an existing account by its verified email (the security log says so). */
  linked: boolean;
}

/**
 * Single sign-on with OpenID Connect (extensions.md § 3.2). The provider authenticates the
 * person, so a sign-in this way asks no password and no two-step code: an account's two-step
 * sign-in guards its password sign-in, and an operator who sets a provider trusts it to
 * authenticate (as they would trust their mail for reset links). An account made this way has no
 * password until it sets one, and a password sign-in of it fails like a wrong password.
 */
@Injectable()
export class OidcService {
  constructor(
    private readonly signOn: SingleSignOn,
    private readonly identities: LinkedIdentityRepository,
    private readonly users: UserRepository,
    private readonly members: MemberRepository,
    private readonly accounts: AccountsService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The way out: the provider's address, and the checks the way back needs, sealed for the cookie. */
  async start(base: string): Promise<SignOnStart> {
    const seal = this.seal();
    const { url, checks } = await this.signOn.start(base + CALLBACK_PATH);
    return { url, sealed: seal.seal(checks, this.clock.now()), seconds: SIGN_ON_LIFETIME_MS / 1000 };
  }

  /**
   * The way back: the cookie's state must be the one the provider sends back (a missing, forged
   * or stale cookie is refused before the provider is asked anything); then the code exchange and
   * the ID token's checks; then the account.
   */
  async finish(base: string, query: string, cookie: string | undefined): Promise<SignOnDone> {
    const checks = this.seal().open(cookie, this.clock.now()) ?? fail('oidc.state_refused');
    const callback = new URL(base + CALLBACK_PATH);
    callback.search = query;
    if (callback.searchParams.get('state') !== checks.state) fail('oidc.state_refused');
    return this.signIn(await this.signOn.finish(callback, checks));
  }

  /**
   * The account linked to the identity; else the account of the email the provider verified,
   * linked now; else a new account under the sign-up rules, its invites turned into memberships.
   */
  private async signIn(identity: ProviderIdentity): Promise<SignOnDone> {
    const now = this.clock.now();
    const linkedId = await this.identities.userOf(identity.issuer, identity.subject);
    const linked = linkedId ? await this.users.findById(linkedId) : null;
    if (linked && !linked.isAgent) return { userId: linked.id, sessionId: await this.accounts.startSession(linked.id), linked: false };

    const email = verifiedEmailOf(identity);
    const known = await this.users.findByEmail(email);
    if (known && !known.isAgent) {
      return this.uow.write(async () => {
        await this.identities.link(identity.issuer, identity.subject, known.id, now);
        return silent({ userId: known.id, sessionId: await this.accounts.startSession(known.id), linked: true });
      });
    }

    await this.accounts.assertMayRegister(email);
    const person = User.registerPerson({ id: randomUUID(), email, name: nameOfIdentity(identity, email), passwordHash: null, now });
    return this.uow.write(async () => {
      await this.users.insert(person);
      await this.members.acceptInvites(email, person.id);
      await this.identities.link(identity.issuer, identity.subject, person.id, now);
      return silent({ userId: person.id, sessionId: await this.accounts.startSession(person.id), linked: false });
    });
  }

  private sealer: SignOnSeal | null = null;

  /** Off answers `oidc.off` on both routes. */
  private seal(): SignOnSeal {
    const settings = this.config.oidc ?? fail('oidc.off');
    return (this.sealer ??= new SignOnSeal(settings.clientSecret));
  }
}
