import { DomainError } from '@board/kernel';
import { busyReason } from './database';

// busyReason reads errors only: the drivers stay unloaded (loading them was most of this spec's time).
jest.mock('typeorm', () => ({}));
jest.mock('pg', () => ({}));

/** Which failures mean "the database is busy" (503 with Retry-After: 5) rather than a fault (500). */
describe('busyReason: busy or not', () => {
  const isBusy = (error: unknown) => busyReason(error) !== null;
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

/** What the operator's log line says of a 503: a small pool and a slow statement want different cures. */
describe('busyReason', () => {
  it('names the cause of each busy failure, and none for the others', () => {
    expect(busyReason(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe('a statement ran past its time limit');
    expect(busyReason({ driverError: { code: '53300' } })).toBe('PostgreSQL is out of connections');
    expect(busyReason(new Error('timeout exceeded when trying to connect'))).toBe('no pooled connection came free within the wait');
    expect(busyReason(new Error('Connection terminated due to connection timeout'))).toBe('opening a connection took longer than the wait');
    expect(busyReason(new Error('Connection terminated unexpectedly'))).toBeNull();
    expect(busyReason(new DomainError('server.busy'))).toBeNull();
  });
});
