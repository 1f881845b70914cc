/**
 * This instance among the others on one database. Work an instance claims outside a transaction
 * (a webhook delivery, a bucket key, a notification mail) names the instance as its holder; the
 * claim holds while the instance beats, and once it stops beating (killed, frozen, cut off) any
 * other instance may take the claim over — within seconds, not a job's whole lease.
 */
export abstract class Liveness {
  /**
   * The holder id a claim made now carries, or null while this instance is not known to be alive
   * (not yet entered, or its beats failed for too long): then it claims nothing.
   */
  abstract claimant(): string | null;
  /**
   * Whether a claim made as `holder` is still this instance's to act on: beats are fresh enough
   * that no other instance can have taken it over. Checked before a send starts.
   */
  abstract holds(holder: string): boolean;
  /** Aborted once claims made as `holder` may have been taken over: a send under way stops. */
  abstract signalOf(holder: string): AbortSignal;
  /** Calls `listener` whenever this instance finds another one dead (its claims are free now); answers the unsubscribe. */
  abstract onTakeover(listener: () => void): () => void;
}

/** What a beat found: whether this instance's row was still alive, and how many dead ones it removed. */
export interface BeatResult {
  alive: boolean;
  dead: number;
}

/**
 * The instances' rows (port; its adapter in libs/persistence keeps a connection of its own, so a
 * beat never waits behind other work). Times are the database's, so clocks of the instances
 * never need to agree.
 */
export abstract class InstanceRegistry {
  /** Adds an instance alive for `aliveMs` from now. */
  abstract enter(id: string, name: string, aliveMs: number): Promise<void>;
  /**
   * Keeps `id` alive for `aliveMs` more if it still is, and removes every instance whose time ran
   * out (its claims become free to take).
   */
  abstract beat(id: string, aliveMs: number): Promise<BeatResult>;
  /** Removes an instance: its claims are free at once. */
  abstract leave(id: string): Promise<void>;
}
