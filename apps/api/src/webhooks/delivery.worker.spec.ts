import { Subject } from 'rxjs';
import { BackgroundWork, NoMetrics, Notice, NoticeFeed } from '@board/kernel';
import { WebhookSendInput, WebhookSendResult } from '@board/webhooks';
import { stopWaitsFor } from '../../../../test/support/held-calls';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { AloneLiveness } from '../../../../test/support/in-memory/liveness';
import { InMemoryReplicaReads } from '../../../../test/support/in-memory/replica-reads';
import { InMemoryWebhookRepository } from '../../../../test/support/in-memory/webhook-repository';
import { InMemoryWebhookSender } from '../../../../test/support/in-memory/webhook-sender';
import { DeliveryWorker } from './delivery.worker';

// The worker's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const HOOK = '00000000-0000-4000-8000-0000000000b1';

/** A receiver that answers only when the spec says so; a try cut by its signal answers as the real sender's does. */
class HeldSender extends InMemoryWebhookSender {
  private readonly answers: (() => void)[] = [];

  override send(input: WebhookSendInput): Promise<WebhookSendResult> {
    this.sent.push(input);
    return new Promise((settle) => {
      this.answers.push(() => settle({ ok: true, status: 200, error: null }));
      input.signal?.addEventListener('abort', () => settle({ ok: false, status: null, error: 'aborted' }), { once: true });
    });
  }

  /** Every try under way gets its 200. */
  answerAll(): void {
    for (const answer of this.answers.splice(0)) answer();
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('never came true');
}

async function setUp(deliveries: number) {
  const clock = new SteppedClock();
  const store = new InMemoryWebhookRepository();
  await store.insert({ id: HOOK, projectId: PROJECT, url: 'https://hooks.example.test/in', kinds: ['test'], enabled: true, secret: 'whsec_test' });
  for (let i = 0; i < deliveries; i++) await store.enqueueTest(PROJECT, HOOK, clock.now());
  const sender = new HeldSender();
  const feed: NoticeFeed = { stream: new Subject<Notice>().asObservable(), listening: true };
  const inline: BackgroundWork = { run: (work) => work() };
  const worker = new DeliveryWorker(store, sender, feed, clock, inline, new NoMetrics(), new AloneLiveness(), new InMemoryReplicaReads());
  worker.onApplicationBootstrap();
  const rows = () => store.deliveryRows.map(({ status, tries }) => `${status}/${tries}`);
  return { store, sender, worker, rows };
}

describe('DeliveryWorker, stopping', () => {
  afterEach(() => jest.useRealTimers());

  it('waits for the tries under way and records them; starts no other try and claims nothing more', async () => {
    // Twenty due: sixteen go out at once, four wait for the next round.
    const { store, sender, worker, rows } = await setUp(20);
    const pass = worker.kick();
    await until(() => sender.sent.length === 16);
    await stopWaitsFor(() => worker.onModuleDestroy(), () => sender.answerAll());
    await expect(pass).resolves.toBe(20);
    expect(sender.sent).toHaveLength(16);
    expect(rows()).toEqual([...Array(16).fill('delivered/1'), ...Array(4).fill('pending/0')]);
    // The four never tried stay claimed: they are free once this instance has left.
    expect(store.leases.size).toBe(4);
    // Nothing starts after the stop.
    await store.enqueueTest(PROJECT, HOOK, new Date(0));
    await expect(worker.kick()).resolves.toBe(0);
    await expect(worker.drain()).resolves.toBe(0);
    expect(store.leases.size).toBe(4);
  });

  it('cuts a try still under way after the sender’s answer limit: recorded nowhere, left to the next holder', async () => {
    jest.useFakeTimers();
    const { store, sender, worker, rows } = await setUp(1);
    const pass = worker.kick();
    await jest.advanceTimersByTimeAsync(0);
    expect(sender.sent).toHaveLength(1);
    let stopped = false;
    const stopping = worker.onModuleDestroy().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(4999);
    expect(stopped).toBe(false);
    expect(sender.sent[0].signal?.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(sender.sent[0].signal?.aborted).toBe(true);
    await stopping;
    await expect(pass).resolves.toBe(1);
    expect(rows()).toEqual(['pending/0']);
    expect(store.deliveryRows[0].lastError).toBeNull();
    expect(store.leases.size).toBe(1);
  });
});
