import { DomainError } from '@board/kernel';
import { isBusy } from './database';

// isBusy reads errors only: the drivers stay unloaded (loading them was most of this spec's time).
jest.mock('typeorm', () => ({}));
jest.mock('pg', () => ({}));

/** Which failures mean "the database is busy" (503 with Retry-After: 5) rather than a fault (500). */
describe('isBusy', () => {
  const pgError = (code: string) => Object.assign(new Error('boom'), { code });

  it('is true for a statement cancelled at its limit, a pool wait that timed out and a server out of connections', () => {
    expect(isBusy(pgError('57014'))).toBe(true);
    expect(isBusy(pgError('53300'))).toBe(true);
    expect(isBusy({ driverError: { code: '57014' } })).toBe(true);
    expect(isBusy(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isBusy(new Error('Connection terminated due to connection timeout'))).toBe(true);
  });

  it('is false for other failures and for refusals', () => {
    expect(isBusy(pgError('23505'))).toBe(false);
    expect(isBusy(pgError('40P01'))).toBe(false);
    expect(isBusy(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isBusy(new DomainError('task.not_found'))).toBe(false);
    expect(isBusy(undefined)).toBe(false);
  });
});
