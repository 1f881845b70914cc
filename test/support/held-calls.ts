/** Calls a spec holds until it lets them through: a worker's pass caught mid-way, to stop it there. */
export class HeldCalls {
  private readonly waiting: (() => void)[] = [];
  /** How many calls have been held so far. */
  calls = 0;

  /** Answers once the spec lets this call through. */
  hold(): Promise<void> {
    this.calls++;
    return new Promise((go) => this.waiting.push(go));
  }

  /** Whether a call is waiting now. */
  get waitingNow(): number {
    return this.waiting.length;
  }

  /** Lets every call waiting now through. */
  release(): void {
    for (const go of this.waiting.splice(0)) go();
  }
}

/** Answers once `condition` holds, giving the event loop turns meanwhile (throws when it never does). */
export async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('never came true');
}

/** One turn of the event loop: what was about to happen has happened. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Begins a worker's `stop` (its onModuleDestroy), checks it is still waiting a turn later, lets
 * the pass under way go on with `release`, and answers once the stop has ended.
 */
export async function stopWaitsFor(stop: () => Promise<unknown>, release: () => void): Promise<void> {
  let stopped = false;
  const stopping = stop().then(() => (stopped = true));
  await turn();
  expect(stopped).toBe(false);
  release();
  await stopping;
}
