import { Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import { BackgroundWork, MailMessage, NoMetrics, Notice, NoticeFeed } from '@board/kernel';
import { stopWaitsFor } from '../../../../test/support/held-calls';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { AloneLiveness } from '../../../../test/support/in-memory/liveness';
import { RecordingMailer } from '../../../../test/support/in-memory/mailer';
import { InMemoryNotificationMailOutbox } from '../../../../test/support/in-memory/notification-mail-outbox';
import { AppConfig } from '../config/app-config';
import { MAIL_SHUTDOWN_WAIT_MS } from '../mail/background-mail';
import { NotificationMailWorker } from './notification-mail.worker';

// The worker's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));

/** A relay that accepts a mail only when the spec says so. */
class HeldMailer extends RecordingMailer {
  private readonly accepts: (() => void)[] = [];

  override send(message: MailMessage): Promise<void> {
    this.sent.push(message);
    return new Promise((accept) => this.accepts.push(accept));
  }

  acceptAll(): void {
    for (const accept of this.accepts.splice(0)) accept();
  }
}

function setUp() {
  const clock = new SteppedClock();
  const outbox = new InMemoryNotificationMailOutbox();
  const mailer = new HeldMailer();
  const feed: NoticeFeed = { stream: new Subject<Notice>().asObservable(), listening: true };
  const inline: BackgroundWork = { run: (work) => work() };
  const config = Object.assign(new AppConfig(), { SERVICE_URL: 'https://board.example.test' });
  const worker = new NotificationMailWorker(outbox, mailer, config, clock, feed, inline, new NoMetrics(), new AloneLiveness());
  worker.onModuleInit();
  return { clock, outbox, mailer, worker };
}

describe('NotificationMailWorker, stopping', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('waits for the mails under way to be settled, then claims nothing more', async () => {
    const { clock, outbox, mailer, worker } = setUp();
    const first = outbox.queue('milo@example.test', clock.now());
    const second = outbox.queue('mia@example.test', clock.now());
    const sweep = worker.sweep();
    await new Promise((resolve) => setImmediate(resolve));
    expect(mailer.sent.map((m) => m.to)).toEqual(['milo@example.test', 'mia@example.test']);
    await stopWaitsFor(() => worker.onModuleDestroy(), () => mailer.acceptAll());
    await sweep;
    expect(outbox.sentIds).toEqual([first, second]);
    expect(outbox.queued).toEqual([]);
    // A mail queued after the stop waits for another instance (or the next start).
    outbox.queue('ann@example.test', clock.now());
    await worker.sweep();
    expect(outbox.leases.size).toBe(0);
    expect(mailer.sent).toHaveLength(2);
  });

  it('waits no longer than a relay’s timeouts allow; the mail stays claimed', async () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { clock, outbox, mailer, worker } = setUp();
    outbox.queue('milo@example.test', clock.now());
    void worker.sweep();
    await jest.advanceTimersByTimeAsync(0);
    expect(mailer.sent).toHaveLength(1);
    let stopped = false;
    const stopping = worker.onModuleDestroy().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(MAIL_SHUTDOWN_WAIT_MS - 1);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await stopping;
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('did not end in time'));
    expect(outbox.leases.size).toBe(1);
  });
});
