/** Where a person's two-step sign-in stands. */
export interface TotpState {
  /** The shared secret while it is on, else null. */
  secret: string | null;
  /** A set-up's secret not yet confirmed by a code. */
  pending: string | null;
  /** The last time step a code was accepted in (a code works once). */
  usedStep: number | null;
}

/** Storage of two-step sign-in: the secrets, the used step, recovery code digests. */
export abstract class TotpRepository {
  abstract state(userId: string): Promise<TotpState>;
  /** A new set-up's secret (replaces a pending one). */
  abstract setPending(userId: string, secret: string): Promise<void>;
  /** On, with the step of the confirming code marked used and these recovery code digests (the old ones go). */
  abstract turnOn(userId: string, secret: string, usedStep: number, recoveryDigests: readonly string[]): Promise<void>;
  /** Off: secrets, step and recovery codes gone. */
  abstract turnOff(userId: string): Promise<void>;
  /**
   * Marks `step` used if no later or equal step was: answers false when another request took this
   * code (or a later one) first, so two requests cannot both spend one code.
   */
  abstract spendStep(userId: string, step: number): Promise<boolean>;
  /** Marks an unused recovery code used; false when there is none such. */
  abstract spendRecoveryCode(userId: string, digest: string): Promise<boolean>;
}
