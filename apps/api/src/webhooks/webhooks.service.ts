import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { newSecret, WEBHOOK_SECRET_PREFIX } from '@board/accounts';
import { Clock, fail, parseId, silent, UnitOfWork } from '@board/kernel';
import { WebhookRepository, WebhookSender } from '@board/webhooks';
import { CreateWebhookBody, UpdateWebhookBody } from './webhooks.dto';

/**
 * The six webhook routes and the deliveries list; owner and admins only. A body's address is
 * checked whole first (allow list, DNS: `checkAddress`, from `WebhookAddressCheck`), then the
 * body is read as its DTO, which is the command these take.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly store: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  list(projectId: string) {
    return this.store.list(projectId);
  }

  /** The secret is answered here once; later reads show only its prefix. */
  async create(projectId: string, { url, kinds, enabled }: CreateWebhookBody) {
    const id = randomUUID();
    const secret = newSecret(WEBHOOK_SECRET_PREFIX);
    await this.store.insert({ id, projectId, url, kinds, enabled, secret });
    return { webhook: await this.store.view(projectId, id), secret };
  }

  async update(projectId: string, rawId: string, { url, kinds, enabled, roll }: UpdateWebhookBody) {
    const webhook = await this.load(projectId, rawId);
    if (url !== undefined) webhook.url = url;
    if (kinds !== undefined) webhook.kinds = kinds;
    if (enabled !== undefined) webhook.enabled = enabled;
    if (roll) webhook.secret = newSecret(WEBHOOK_SECRET_PREFIX);
    await this.store.update(webhook);
    const view = await this.store.view(projectId, webhook.id);
    return roll ? { webhook: view, secret: webhook.secret } : { webhook: view };
  }

  /** A `test` delivery with no task, for this webhook alone. */
  async test(projectId: string, rawId: string) {
    const webhook = await this.load(projectId, rawId);
    // A test delivery is no change of the project: no feed line, no notice.
    const [id] = await this.uow.write(async () =>
      silent(await this.store.enqueueTest(projectId, webhook.id, this.clock.now())),
    );
    return { delivery: await this.store.delivery(projectId, id) };
  }

  async remove(projectId: string, rawId: string): Promise<void> {
    const id = parseId(rawId, 'webhook');
    if (!(await this.store.delete(projectId, id))) fail('webhook.not_found');
  }

  async count(projectId: string, rawId: string) {
    const webhook = await this.load(projectId, rawId);
    return { deliveries: await this.store.count(projectId, webhook.id) };
  }

  async deliveries(projectId: string, rawId: string) {
    const webhook = await this.load(projectId, rawId);
    return { deliveries: await this.store.deliveries(projectId, webhook.id) };
  }

  /**
   * Address rules when saved, checked whole before the body is read: an http(s) URL without name
   * and password whose host is not private. The DTO keeps the URL's form.
   */
  async checkAddress(raw: unknown): Promise<void> {
    try {
      await this.sender.check(raw);
    } catch (error) {
      // A name that does not resolve now may resolve later: it is checked again before every try.
      const code = (error as { code?: string }).code;
      if (code !== 'ENOTFOUND' && code !== 'EAI_AGAIN') throw error;
    }
  }

  /** The webhook of a path, or 404: the gate of a change, before its body. */
  async assertFound(projectId: string, rawId: string): Promise<void> {
    await this.load(projectId, rawId);
  }

  private async load(projectId: string, rawId: string) {
    const webhook = await this.store.find(projectId, parseId(rawId, 'webhook'));
    if (!webhook) fail('webhook.not_found');
    return webhook;
  }
}
