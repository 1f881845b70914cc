import { Injectable } from '@nestjs/common';
import {
  acceptedStep, digestOf, newRecoveryCodes, newTotpSecret, otpauthUrl, PasswordHasher, SecondStepCode, TotpRepository, UserRepository,
} from '@board/accounts';
import { Clock, fail, silent, UnitOfWork } from '@board/kernel';

/** How a sign-in's second step was passed. */
export type SecondStep = 'none' | 'code' | 'recovery';

/** Two-step sign-in with an authenticator app (extensions.md § 3.1). */
@Injectable()
export class TotpService {
  constructor(
    private readonly totp: TotpRepository,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** A new secret to scan; not on until a code from it is sent to `enable`. Again replaces it. */
  async setup(userId: string, label: string): Promise<{ secret: string; otpauthUrl: string }> {
    return this.uow.write(async () => {
      const state = await this.totp.state(userId);
      if (state.secret) fail('totp.on_already');
      const secret = newTotpSecret();
      await this.totp.setPending(userId, secret);
      return silent({ secret, otpauthUrl: otpauthUrl(secret, label) });
    });
  }

  /** A right code from the pending secret turns it on; the recovery codes are shown this once. */
  async enable(userId: string, code: SecondStepCode | null): Promise<{ recoveryCodes: string[] }> {
    return this.uow.write(async () => {
      const state = await this.totp.state(userId);
      if (state.secret) fail('totp.on_already');
      if (!state.pending) fail('totp.setup_first');
      // The code that turns it on counts as used: it cannot sign in a second time.
      const step = acceptedStep(state.pending, code, this.clock.now(), null) ?? fail('totp.code_wrong');
      const recoveryCodes = newRecoveryCodes();
      await this.totp.turnOn(userId, state.pending, step, recoveryCodes.map(digestOf));
      return silent({ recoveryCodes });
    });
  }

  /**
   * Off, with the password in use and a code (or a recovery code). Off already: nothing to do. An
   * account without a password (made by single sign-on, none set yet) has none to confirm: the
   * code alone turns it off.
   */
  async disable(userId: string, password: string | null, code: SecondStepCode | null): Promise<void> {
    const user = (await this.users.findById(userId)) ?? fail('auth.signin_required');
    const hash = user.snapshot.passwordHash;
    if (hash && (password === null || !(await this.hasher.verify(hash, password)))) fail('account.wrong_password');
    await this.uow.write(async () => {
      const state = await this.totp.state(userId);
      if (!state.secret) return silent(undefined);
      if ((await this.passSecondStep(userId, state.secret, state.usedStep, code)) === 'none') fail('totp.code_wrong');
      await this.totp.turnOff(userId);
      return silent(undefined);
    });
  }

  /**
   * The sign-in's second step for a person whose password matched: none needed when it is off;
   * else the code (401 with `needsCode` when missing, 401 when wrong; both are failed tries of
   * the login throttle, as the caller runs inside it).
   */
  async signInStep(userId: string, code: SecondStepCode | null): Promise<SecondStep> {
    const state = await this.totp.state(userId);
    if (!state.secret) return 'none';
    if (code === null) fail('totp.code_needed', {}, { needsCode: true });
    const passed = await this.uow.write(async () => silent(await this.passSecondStep(userId, state.secret as string, state.usedStep, code)));
    if (passed === 'none') fail('totp.login_code_wrong');
    return passed;
  }

  /** A code of the secret not used before, spent; else a recovery code, spent; else 'none'. */
  private async passSecondStep(userId: string, secret: string, usedStep: number | null, code: SecondStepCode | null): Promise<SecondStep> {
    const step = acceptedStep(secret, code, this.clock.now(), usedStep);
    if (step !== null) return (await this.totp.spendStep(userId, step)) ? 'code' : 'none';
    const recovery = code?.recovery;
    if (recovery && (await this.totp.spendRecoveryCode(userId, digestOf(recovery)))) return 'recovery';
    return 'none';
  }
}
