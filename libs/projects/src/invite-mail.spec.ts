import { DomainError } from '@board/kernel';
import { assertInviteMailAllowed, INVITE_MAIL_WINDOW_MS, retryAfterSeconds } from './invite-mail';

describe('invite mail limits', () => {
  it('lets a mail or a repeat through and refuses the limit with Retry-After seconds', () => {
    expect(() => assertInviteMailAllowed({ kind: 'send' })).not.toThrow();
    expect(() => assertInviteMailAllowed({ kind: 'repeat' })).not.toThrow();
    try {
      assertInviteMailAllowed({ kind: 'limit', retryAfterSeconds: 0 });
      throw new Error('not refused');
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('invite.too_many');
      expect((e as DomainError).params).toEqual({ retryAfter: 1 });
    }
  });

  it('counts the seconds until the oldest counted mail leaves the day, rounded up, at least one', () => {
    const now = new Date('2026-01-02T12:00:00.000Z');
    expect(retryAfterSeconds(new Date(now.getTime() - INVITE_MAIL_WINDOW_MS + 1500), now)).toBe(2);
    expect(retryAfterSeconds(new Date(now.getTime() - 60_000), now)).toBe(24 * 3600 - 60);
    expect(retryAfterSeconds(new Date(now.getTime() - INVITE_MAIL_WINDOW_MS - 5000), now)).toBe(1);
  });
});
