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
