import { TotpRepository, TotpState } from '@board/accounts';

/** TotpRepository in memory: each person's secrets, used step and recovery code digests. */
export class InMemoryTotpRepository extends TotpRepository {
  readonly states = new Map<string, TotpState>();
  readonly recovery = new Map<string, Map<string, boolean>>();

  async state(userId: string): Promise<TotpState> {
    return { ...(this.states.get(userId) ?? { secret: null, pending: null, usedStep: null }) };
  }
  async setPending(userId: string, secret: string): Promise<void> {
    this.states.set(userId, { ...(await this.state(userId)), pending: secret });
  }
  async turnOn(userId: string, secret: string, usedStep: number, digests: readonly string[]): Promise<void> {
    this.states.set(userId, { secret, pending: null, usedStep });
    this.recovery.set(userId, new Map(digests.map((d) => [d, false])));
  }
  async turnOff(userId: string): Promise<void> {
    this.states.delete(userId);
    this.recovery.delete(userId);
  }
  async spendStep(userId: string, step: number): Promise<boolean> {
    const s = await this.state(userId);
    if (s.usedStep !== null && s.usedStep >= step) return false;
    this.states.set(userId, { ...s, usedStep: step });
    return true;
  }
  async spendRecoveryCode(userId: string, digest: string): Promise<boolean> {
    const codes = this.recovery.get(userId);
    if (!codes || codes.get(digest) !== false) return false;
    codes.set(digest, true);
    return true;
  }
}
