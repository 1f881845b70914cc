import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { newSecret, WEBHOOK_SECRET_PREFIX } from '@board/accounts';
import { Clock, fail, parseId, silent, UnitOfWork } from '@board/kernel';
import { readEnabled, readKinds, WebhookRepository, WebhookSender } from '@board/webhooks';
import type { AfterGate } from '../http/dto/after-gate';
import { CreateWebhookBody, UpdateWebhookBody } from './webhooks.dto';

/**
 * The six webhook routes and the deliveries list; owner and admins only. A body's address is
 * checked whole first (allow list, DNS), then the body is read as its DTO.
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
  async create(projectId: string, body: AfterGate<CreateWebhookBody>) {
    const url = await this.checkUrl(body.field('url'));
    const fields = body.read();
    const kinds = readKinds(fields.kinds);
    const enabled = readEnabled(fields.enabled, true);
    const id = randomUUID();
    const secret = newSecret(WEBHOOK_SECRET_PREFIX);
    await this.store.insert({ id, projectId, url, kinds, enabled, secret });
    return { webhook: await this.store.view(projectId, id), secret };
  }

  async update(projectId: string, rawId: string, body: AfterGate<UpdateWebhookBody>) {
    const webhook = await this.load(projectId, rawId);
    const url = body.field('url');
    if (url !== undefined) webhook.url = await this.checkUrl(url);
    const fields = body.read();
    if (fields.kinds !== undefined) webhook.kinds = readKinds(fields.kinds);
    webhook.enabled = readEnabled(fields.enabled, webhook.enabled);
    const roll = fields.roll === true;
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

  /** Address rules when saved: an http(s) URL without name and password whose host is not private. */
  private async checkUrl(raw: unknown): Promise<string> {
    try {
      const { url } = await this.sender.check(raw);
      return url.toString();
    } catch (error) {
      // A name that does not resolve now may resolve later: it is checked again before every try.
      if ((error as { code?: string }).code === 'ENOTFOUND' || (error as { code?: string }).code === 'EAI_AGAIN') {
        return new URL(String(raw).trim()).toString();
      }
      throw error;
    }
  }

  private async load(projectId: string, rawId: string) {
    const webhook = await this.store.find(projectId, parseId(rawId, 'webhook'));
    if (!webhook) fail('webhook.not_found');
    return webhook;
  }
}
