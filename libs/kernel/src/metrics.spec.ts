import { NoMetrics, SweepName } from './metrics';

class Sweeps extends NoMetrics {
  readonly done: [SweepName, boolean][] = [];
  override sweepDone(sweep: SweepName, failed: boolean, seconds: number): void {
    expect(seconds).toBeGreaterThanOrEqual(0);
    this.done.push([sweep, failed]);
  }
}

describe('Metrics.sweep', () => {
  it('records a pass that went, and answers what it did', async () => {
    const metrics = new Sweeps();
    await expect(metrics.sweep('retention', async () => 7)).resolves.toBe(7);
    expect(metrics.done).toEqual([['retention', false]]);
  });

  it('records a pass that failed, and throws its error on', async () => {
    const metrics = new Sweeps();
    await expect(metrics.sweep('files', async () => Promise.reject(new Error('bucket down')))).rejects.toThrow('bucket down');
    expect(metrics.done).toEqual([['files', true]]);
  });
});
