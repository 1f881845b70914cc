import { BackgroundMail, describeFailure } from './background-mail';

describe('describeFailure', () => {
  it('names the code, the relay answer and the message, with any reset token blotted out', () => {
    const error = Object.assign(new Error('Message failed: 550 rejected https://b.example/reset?token=svcr_AbC-12_xyz for x@y.test'), {
      code: 'EMESSAGE',
      responseCode: 550,
    });
    const line = describeFailure(error);
    expect(line).toBe('EMESSAGE 550 Message failed: 550 rejected https://b.example/reset?token=svcr_… for x@y.test');
    expect(line).not.toContain('AbC');
  });

  it('reads anything thrown, on one short line', () => {
    expect(describeFailure('plain\nstring')).toBe('plain string');
    expect(describeFailure(new Error('x'.repeat(1000)))).toHaveLength(300);
  });
});

describe('BackgroundMail', () => {
  it('runs work after the caller goes on, and a shutdown waits for it', async () => {
    const mail = new BackgroundMail();
    const order: string[] = [];
    let finish!: () => void;
    mail.run('A test mail', async () => {
      order.push('started');
      await new Promise<void>((resolve) => (finish = resolve));
      order.push('finished');
    });
    order.push('caller went on');
    await new Promise((resolve) => setImmediate(resolve));
    const shutdown = mail.beforeApplicationShutdown().then(() => order.push('shut down'));
    finish();
    await shutdown;
    expect(order).toEqual(['caller went on', 'started', 'finished', 'shut down']);
  });
});

describe('BackgroundMail.within', () => {
  afterEach(() => jest.useRealTimers());

  it('answers true once the work is done, false when it fails, and never rejects', async () => {
    const mail = new BackgroundMail();
    await expect(mail.within('A test mail', 1000, async () => undefined)).resolves.toBe(true);
    await expect(mail.within('A test mail', 1000, async () => Promise.reject(new Error('550 refused')))).resolves.toBe(false);
  });

  it('answers false after the wait while the work goes on, and a shutdown still waits for it', async () => {
    jest.useFakeTimers();
    const mail = new BackgroundMail();
    let finish!: () => void;
    let finished = false;
    const answer = mail.within('A slow mail', 10_000, () => new Promise<void>((resolve) => (finish = resolve)).then(() => void (finished = true)));
    await jest.advanceTimersByTimeAsync(10_000);
    await expect(answer).resolves.toBe(false);
    const shutdown = mail.beforeApplicationShutdown();
    finish();
    await jest.advanceTimersByTimeAsync(0);
    await shutdown;
    expect(finished).toBe(true);
  });
});
