import type { DatabaseHealthQuery } from '@board/persistence';
import { HealthService } from './health.service';

// The read model is a small typed fake below: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));

const healthOf = (answers: () => Promise<boolean>) => new HealthService({ answers } satisfies DatabaseHealthQuery);

describe('HealthService', () => {
  it('is healthy when the database answers, and not when it says it cannot', async () => {
    expect(await healthOf(async () => true).ok()).toBe(true);
    expect(await healthOf(async () => false).ok()).toBe(false);
  });

  it('is not healthy when the database does not answer within two seconds', async () => {
    jest.useFakeTimers();
    try {
      const pending = healthOf(() => new Promise<boolean>(() => undefined)).ok();
      jest.advanceTimersByTime(1999);
      let settled = false;
      void pending.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      jest.advanceTimersByTime(1);
      expect(await pending).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
