import { beatEvery } from './beat-timer';

describe('beatEvery', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A beat that settles only when the test says so, counting how many run at once. */
  const heldBeats = () => {
    const pending: (() => void)[] = [];
    let running = 0;
    let most = 0;
    let started = 0;
    const beat = () =>
      new Promise<void>((resolve, reject) => {
        started++;
        most = Math.max(most, ++running);
        pending.push(() => {
          running--;
          if (started % 2) resolve();
          else reject(new Error('The server is busy. Try again in a moment.'));
        });
      });
    return { beat, settle: () => pending.shift()?.(), stats: () => ({ started, most, running }) };
  };

  it('never starts a beat while the last one is still on its way, however long it takes', async () => {
    const beats = heldBeats();
    const timer = beatEvery(150, beats.beat);
    await jest.advanceTimersByTimeAsync(150);
    expect(beats.stats()).toEqual({ started: 1, most: 1, running: 1 });
    // Ten intervals pass while the first beat waits: setInterval would have started ten more.
    await jest.advanceTimersByTimeAsync(1500);
    expect(beats.stats()).toEqual({ started: 1, most: 1, running: 1 });
    beats.settle();
    await jest.advanceTimersByTimeAsync(149);
    expect(beats.stats().started).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(beats.stats()).toEqual({ started: 2, most: 1, running: 1 });
    timer.stop();
  });

  it('goes on after a beat that failed, and stops for good on stop', async () => {
    const beats = heldBeats();
    const timer = beatEvery(100, beats.beat);
    for (let i = 0; i < 4; i++) {
      await jest.advanceTimersByTimeAsync(100);
      beats.settle(); // every second one rejects
    }
    expect(beats.stats()).toEqual({ started: 4, most: 1, running: 0 });
    timer.stop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(beats.stats().started).toBe(4);
  });

  it('starts no beat after a stop called while one is on its way', async () => {
    const beats = heldBeats();
    const timer = beatEvery(100, beats.beat);
    await jest.advanceTimersByTimeAsync(100);
    timer.stop();
    beats.settle();
    await jest.advanceTimersByTimeAsync(1000);
    expect(beats.stats()).toEqual({ started: 1, most: 1, running: 0 });
  });
});
