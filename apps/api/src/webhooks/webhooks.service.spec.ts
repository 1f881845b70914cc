import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { InMemoryWebhookRepository } from '../../../../test/support/in-memory/webhook-repository';
import { InMemoryWebhookSender } from '../../../../test/support/in-memory/webhook-sender';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import { WebhooksService } from './webhooks.service';

const MISSING = '5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11';

function setUp() {
  const store = new InMemoryWebhookRepository();
  const sender = new InMemoryWebhookSender();
  const uow = new RecordingUnitOfWork();
  return { store, sender, uow, service: new WebhooksService(store, sender, uow, new SteppedClock()) };
}

describe('WebhooksService', () => {
  it('creates a webhook and answers its secret once; later reads show only the prefix', async () => {
    const { service, store } = setUp();
    const created = await service.create('p1', { url: 'https://hooks.example.com/in', kinds: ['created'], enabled: true });
    expect(created.secret).toMatch(/^svcs_/);
    expect(created.webhook).toMatchObject({ url: 'https://hooks.example.com/in', kinds: ['created'], enabled: true, secretPrefix: created.secret.slice(0, 8) });
    expect(JSON.stringify(await service.list('p1'))).not.toContain(created.secret);
    expect(store.webhooks.size).toBe(1);
  });

  it('changes only the fields sent, and a roll makes a new secret', async () => {
    const { service } = setUp();
    const { webhook, secret } = await service.create('p1', { url: 'https://hooks.example.com/in', kinds: ['created'], enabled: true });
    const id = webhook!.id;
    const changed = await service.update('p1', id, { enabled: false, roll: false });
    expect(changed).toEqual({ webhook: expect.objectContaining({ url: 'https://hooks.example.com/in', kinds: ['created'], enabled: false }) });
    const rolled = await service.update('p1', id, { kinds: [], roll: true });
    expect(rolled).toMatchObject({ webhook: { kinds: [], enabled: false }, secret: expect.stringMatching(/^svcs_/) });
    expect((rolled as { secret: string }).secret).not.toBe(secret);
  });

  it('checks an address whole before a body is read: a private host is refused, one that does not resolve yet passes', async () => {
    const { service, sender } = setUp();
    sender.privateHosts.add('10.0.0.1');
    sender.unresolved.add('later.example.com');
    expect(await refusalCode(service.checkAddress('http://10.0.0.1/hook'))).toBe('webhook.address_private');
    expect(await refusalCode(service.checkAddress('ftp://hooks.example.com'))).toBe('webhook.url_invalid');
    expect(await refusalCode(service.checkAddress(undefined))).toBe('webhook.url_invalid');
    await expect(service.checkAddress('https://later.example.com/hook')).resolves.toBeUndefined();
  });

  it('finds a webhook of the project only, before its change is read', async () => {
    const { service } = setUp();
    const { webhook } = await service.create('p1', { url: 'https://hooks.example.com/in', kinds: [], enabled: true });
    await expect(service.assertFound('p1', webhook!.id)).resolves.toBeUndefined();
    expect(await refusalCode(service.assertFound('p2', webhook!.id))).toBe('webhook.not_found');
    expect(await refusalCode(service.assertFound('p1', 'nope'))).toBe('id.invalid');
  });

  it('queues a test delivery in a silent write (no feed line, no notice)', async () => {
    const { service, uow } = setUp();
    const { webhook } = await service.create('p1', { url: 'https://hooks.example.com/in', kinds: [], enabled: true });
    const { delivery } = await service.test('p1', webhook!.id);
    expect(delivery).toMatchObject({ kind: 'test', status: 'pending' });
    expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
    expect(await service.count('p1', webhook!.id)).toEqual({ deliveries: 1 });
    expect(await refusalCode(service.test('p1', MISSING))).toBe('webhook.not_found');
  });

  it('removes a webhook once', async () => {
    const { service } = setUp();
    const { webhook } = await service.create('p1', { url: 'https://hooks.example.com/in', kinds: [], enabled: true });
    await service.remove('p1', webhook!.id);
    expect(await refusalCode(service.remove('p1', webhook!.id))).toBe('webhook.not_found');
    expect(await refusalCode(service.deliveries('p1', webhook!.id))).toBe('webhook.not_found');
  });
});
