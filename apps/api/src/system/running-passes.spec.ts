import { RunningPasses } from './running-passes';

/** A promise the spec settles. */
function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

describe('RunningPasses', () => {
  afterEach(() => jest.useRealTimers());

  it('runs a pass at once and answers what it answers, or its failure', async () => {
    const passes = new RunningPasses();
    let started = false;
    const answer = passes.run(async () => ((started = true), 7), 0);
    expect(started).toBe(true);
    await expect(answer).resolves.toBe(7);
    await expect(passes.run(() => Promise.reject(new Error('the database went away')), 0)).rejects.toThrow('the database went away');
    await expect(
      passes.run(() => {
        throw new Error('thrown before any promise');
      }, 0),
    ).rejects.toThrow('thrown before any promise');
  });

  it('stops: waits for the passes under way, which see it, and starts none after', async () => {
    const passes = new RunningPasses();
    const order: string[] = [];
    const first = gate();
    const second = gate();
    void passes.run(async () => {
      await first.promise;
      order.push(`first ended, stopped: ${passes.stopped}`);
    }, undefined);
    // A failing pass is waited for too, and fails neither the stop nor its neighbours.
    void passes.run(() => second.promise.then(() => Promise.reject(new Error('late failure'))), undefined).catch(() => order.push('second failed'));
    const stopping = passes.stop(60_000).then((ended) => order.push(`stopped: ${ended}`));
    expect(passes.stopped).toBe(true);
    let ran = false;
    await expect(passes.run(async () => void (ran = true), 'idle' as const)).resolves.toBe('idle');
    expect(ran).toBe(false);
    second.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['second failed']);
    first.open();
    await stopping;
    expect(order).toEqual(['second failed', 'first ended, stopped: true', 'stopped: true']);
    expect(passes.cut.aborted).toBe(false);
  });

  it('answers at once when nothing is under way', async () => {
    const passes = new RunningPasses();
    await passes.run(async () => undefined, undefined);
    await expect(passes.stop(0)).resolves.toBe(true);
  });

  it('gives up on a pass that does not end in time, without cutting it unless told', async () => {
    jest.useFakeTimers();
    const passes = new RunningPasses();
    void passes.run(() => new Promise<void>(() => undefined), undefined);
    const stopped = passes.stop(5000);
    await jest.advanceTimersByTimeAsync(4999);
    let answered: boolean | undefined;
    void stopped.then((ended) => (answered = ended));
    await jest.advanceTimersByTimeAsync(0);
    expect(answered).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(answered).toBe(false);
    expect(passes.cut.aborted).toBe(false);
  });

  it('cuts a pass still under way after the wait, and waits a little more for it to end', async () => {
    jest.useFakeTimers();
    const passes = new RunningPasses();
    // A send that only its signal ends, as a webhook try to a receiver that never answers.
    void passes.run(() => new Promise<void>((resolve) => passes.cut.addEventListener('abort', () => resolve())), undefined);
    const stopped = passes.stop(5000, 1000);
    await jest.advanceTimersByTimeAsync(4999);
    expect(passes.cut.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(passes.cut.aborted).toBe(true);
    await expect(stopped).resolves.toBe(true);
  });

  it('answers false when even a cut pass does not end', async () => {
    jest.useFakeTimers();
    const passes = new RunningPasses();
    void passes.run(() => new Promise<void>(() => undefined), undefined);
    const stopped = passes.stop(5000, 1000);
    await jest.advanceTimersByTimeAsync(6000);
    await expect(stopped).resolves.toBe(false);
  });
});
