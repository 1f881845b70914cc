import { parseWebhookUrl, WebhookSender, WebhookSendInput, WebhookSendResult } from '@board/webhooks';
import { DomainError } from '@board/kernel';

/**
 * A sender without the network: the address's form is the domain's, and the spec names the hosts
 * that are private (`webhook.address_private`) and those that do not resolve now (ENOTFOUND).
 */
export class InMemoryWebhookSender extends WebhookSender {
  readonly privateHosts = new Set<string>();
  readonly unresolved = new Set<string>();
  readonly sent: WebhookSendInput[] = [];

  async check(rawUrl: unknown) {
    const url = parseWebhookUrl(rawUrl);
    if (this.privateHosts.has(url.hostname)) throw new DomainError('webhook.address_private');
    if (this.unresolved.has(url.hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${url.hostname}`), { code: 'ENOTFOUND' });
    return { url, host: url.hostname, addresses: ['203.0.113.10'] };
  }

  async send(input: WebhookSendInput): Promise<WebhookSendResult> {
    this.sent.push(input);
    return { ok: true, status: 200, error: null };
  }
}
