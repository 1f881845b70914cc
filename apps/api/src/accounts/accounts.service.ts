import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  AccountChange, AccountView, CommonPasswords, digestOf, newSecret, PasswordHasher, refuseCommonPassword, ResetTokenRepository, SESSION_LIFETIME_MS,
  SessionRepository, User, UserRepository,
} from '@board/accounts';
import { Clock, fail, silent, UnitOfWork } from '@board/kernel';
import { MemberRepository } from '@board/projects';
import { AppConfig } from '../config/app-config';
import { AuthContext, SessionAuth } from '../auth/auth-context';
import { ChangePasswordBody, LoginBody, RegisterBody, ResetBody } from './accounts.dto';
import { TotpService } from './totp.service';

export interface SignedIn {
  user: AccountView;
  /** The new session id, to go out in the cookie only. */
  sessionId: string;
  /** The second step was passed with a recovery code (the security log says so). */
  recoveryCodeUsed?: boolean;
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly resets: ResetTokenRepository,
    private readonly members: MemberRepository,
    private readonly hasher: PasswordHasher,
    private readonly commonPasswords: CommonPasswords,
    private readonly uow: UnitOfWork,
    private readonly totp: TotpService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Closed sign-up is refused before the body is read. */
  assertSignupOpen(): void {
    if (this.config.SERVICE_SIGNUP === 'closed') fail('signup.closed');
  }

  /** Inside the `register` throttle (the route's): every refusal here counts as a failed try. */
  async register(body: RegisterBody): Promise<SignedIn> {
    this.assertSignupOpen();
    refuseCommonPassword(this.commonPasswords, body.password);
    const draft = User.registerPerson({ id: randomUUID(), email: body.email, name: body.name, passwordHash: null, now: this.clock.now() });
    await this.assertMayRegister(body.email);
    if (await this.users.findByEmail(body.email)) fail('account.email_taken');
    draft.setPasswordHash(await this.hasher.hash(body.password));
    return this.uow.write(async () => {
      await this.users.insert(draft);
      await this.members.acceptInvites(body.email, draft.id);
      return silent({ user: draft.view, sessionId: await this.startSession(draft.id) });
    });
  }

  /** `SERVICE_SIGNUP` for a new account of this (normalised) email: closed, or `invite` without a pending invite, is refused. */
  async assertMayRegister(email: string): Promise<void> {
    this.assertSignupOpen();
    if (this.config.SERVICE_SIGNUP === 'invite' && !(await this.members.hasInvite(email))) fail('signup.closed');
  }

  /**
   * Inside the `login` throttle. The email is normalised, not judged (an account stored before the
   * rules tightened still signs in). Where several accounts share a normalised email (kept by the
   * migration that normalised them), each one's password is tried, oldest first, and the first
   * that matches signs in.
   */
  async login({ email, password, code }: LoginBody): Promise<SignedIn> {
    const accounts = email ? (await this.users.findAllByEmail(email)).flatMap((u) => (!u.isAgent && u.passwordHash ? [{ user: u, hash: u.passwordHash }] : [])) : [];
    // An unknown email costs the same hashing time as a wrong password.
    if (accounts.length === 0) await this.hasher.verifyNothing(password);
    for (const { user, hash } of accounts) {
      if (await this.hasher.verify(hash, password)) {
        // Inside the login throttle (the route's interceptor): a missing or wrong code is a failed try like a wrong password.
        const second = await this.totp.signInStep(user.id, code);
        return { user: user.view, sessionId: await this.startSession(user.id), recoveryCodeUsed: second === 'recovery' };
      }
    }
    return fail('account.login_failed');
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.sessions.delete(digestOf(sessionId));
  }

  async me(auth: AuthContext): Promise<AccountView> {
    return (await this.load(auth.caller.id)).view;
  }

  async updateMe(auth: AuthContext, change: AccountChange): Promise<AccountView> {
    const user = await this.load(auth.caller.id);
    const profile = user.changeProfile(change);
    const mail = change.mailNotifications !== undefined && user.setMailNotifications(change.mailNotifications);
    if (profile || mail) await this.users.save(user);
    return user.view;
  }

  /**
   * Before the body's rules (`PasswordChangeCheck`): a person with a password sends it and the new
   * one, or hears the contract's first sentence. A person without one (an account made by single
   * sign-on) has nothing to send as `current`: the new password alone sets it.
   */
  async assertPasswordChangeComplete(userId: string, body: { current?: unknown; next?: unknown }): Promise<void> {
    const filled = (value: unknown) => typeof value === 'string' && value !== '';
    if ((await this.load(userId)).passwordHash && !(filled(body.current) && filled(body.next))) fail('account.password_change_incomplete');
  }

  async changePassword(auth: SessionAuth, { current, next }: ChangePasswordBody): Promise<void> {
    // A body judgement, like the length the DTO checked: before the current password is tried.
    refuseCommonPassword(this.commonPasswords, next);
    const user = await this.load(auth.caller.id);
    if (user.isAgent) fail('account.wrong_password');
    // Without a password yet (single sign-on) the session alone sets the first one.
    if (user.passwordHash && (current === null || !(await this.hasher.verify(user.passwordHash, current)))) fail('account.wrong_password');
    user.setPasswordHash(await this.hasher.hash(next));
    await this.uow.write(async () => {
      await this.users.save(user);
      await this.sessions.deleteOthers(user.id, auth.sessionDigest);
      return silent(undefined);
    });
  }

  otherSessions(auth: SessionAuth): Promise<number> {
    return this.sessions.countOthers(auth.caller.id, auth.sessionDigest, this.clock.now());
  }

  async endOtherSessions(auth: SessionAuth): Promise<void> {
    await this.sessions.deleteOthers(auth.caller.id, auth.sessionDigest);
  }

  /**
   * Sets a new password with a one-time reset link; every session ends and one opens for the
   * caller. Inside the `reset` throttle, where only dead links count.
   */
  async reset({ password, token }: ResetBody): Promise<SignedIn> {
    refuseCommonPassword(this.commonPasswords, password);
    const hash = await this.hasher.hash(password);
    return this.uow.write(async () => {
      const grant = token ? await this.resets.consume(digestOf(token), this.clock.now()) : null;
      if (!grant) fail('reset.dead_link');
      const user = await this.users.findById(grant.userId);
      if (!user || user.isAgent) fail('reset.dead_link');
      // A member link is checked again at use: the person may have joined a project its maker
      // does not manage since (or the maker lost the role), and then it would reach past them.
      if (grant.madeBy && (await this.members.inProjectsBeyond(user.id, grant.madeBy))) fail('reset.dead_link');
      user.setPasswordHash(hash);
      await this.users.save(user);
      await this.sessions.deleteOthers(user.id, null);
      return silent({ user: user.view, sessionId: await this.startSession(user.id) });
    });
  }

  /** A fresh random id every time: a session id sent by the client is never reused. */
  async startSession(userId: string): Promise<string> {
    const sessionId = newSecret();
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_LIFETIME_MS);
    await this.sessions.create({ digest: digestOf(sessionId), userId, expiresAt });
    return sessionId;
  }

  private async load(userId: string): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) fail('auth.signin_required');
    return user;
  }
}
