import { Throttle, THROTTLE_LIMIT, User } from '@board/accounts';
import { AppConfig } from '../config/app-config';
import { BackgroundMail } from '../mail/background-mail';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { RecordingMailer } from '../../../../test/support/in-memory/mailer';
import { InMemoryResetTokenRepository } from '../../../../test/support/in-memory/reset-token-repository';
import { InMemoryThrottleRepository } from '../../../../test/support/in-memory/throttle-repository';
import { InMemoryUserRepository } from '../../../../test/support/in-memory/user-repository';
import { refusalCode } from '../../../../test/support/refusal-code';
import { ForgotService } from './forgot.service';

function setUp(options: { mail?: boolean; url?: string | undefined } = {}) {
  const users = new InMemoryUserRepository();
  const resets = new InMemoryResetTokenRepository();
  const tries = new InMemoryThrottleRepository();
  const clock = new SteppedClock();
  const mailer = new RecordingMailer(options.mail ?? true);
  const background = new BackgroundMail();
  const config = Object.assign(new AppConfig(), { SERVICE_URL: 'url' in options ? options.url : 'https://board.example.com' });
  const service = new ForgotService(users, resets, new Throttle(tries, clock), mailer, background, clock, config);
  const add = (id: string, email: string, passwordHash: string | null, kind: 'human' | 'agent' = 'human') =>
    users.put(User.restore({ id, kind, email, name: id, color: '#000000', emoji: null, passwordHash, projectId: null, createdAt: clock.now(), mailNotifications: true, totp: false }));
  return { service, users, resets, tries, mailer, background, add };
}

/** Runs the work the answer starts, and waits for its mail. */
async function mailOut(start: () => void, background: BackgroundMail): Promise<void> {
  start();
  await background.beforeApplicationShutdown();
}

describe('ForgotService', () => {
  it('is unavailable without mail or without the service address', () => {
    expect(() => setUp({ mail: false }).service.assertAvailable()).toThrow(expect.objectContaining({ code: 'forgot.unavailable' }));
    expect(() => setUp({ url: undefined }).service.assertAvailable()).toThrow(expect.objectContaining({ code: 'forgot.unavailable' }));
    expect(setUp().service.assertAvailable()).toBe('https://board.example.com');
  });

  it('mails a link to each person with a password who uses the email, after the answer', async () => {
    const { service, add, mailer, resets, background } = setUp();
    add('ann', 'ann@example.com', 'hashed:x');
    add('no-password', 'ann@example.com', null);
    add('bot', 'ann@example.com', 'hashed:x', 'agent');
    const start = await service.request({ email: 'ann@example.com' }, '10.0.0.1');
    expect(mailer.sent).toEqual([]);
    await mailOut(start, background);
    expect(mailer.sent.map((m) => m.to)).toEqual(['ann@example.com']);
    expect([...resets.links.keys()]).toEqual(['ann']);
  });

  it('counts every request, per address and per email, and refuses the eleventh', async () => {
    const { service, tries } = setUp();
    for (let i = 0; i < THROTTLE_LIMIT; i++) await service.request({ email: `p${i}@example.com` }, '10.0.0.1');
    expect(tries.tries.filter((t) => t.family === 'forgot').map((t) => t.subject)).toContain('p0@example.com');
    expect(await refusalCode(service.request({ email: 'late@example.com' }, '10.0.0.1'))).toBe('throttle.too_many');
    // Another address is counted apart.
    await expect(service.request({ email: 'late@example.com' }, '10.0.0.2')).resolves.toBeInstanceOf(Function);
  });

  it('refuses when mail is off, before counting anything', async () => {
    const { service, tries } = setUp({ mail: false });
    expect(await refusalCode(service.request({ email: 'ann@example.com' }, '10.0.0.1'))).toBe('forgot.unavailable');
    expect(tries.tries).toEqual([]);
  });
});
