import {
  DeliveryView, DueDelivery, TryOutcome, WebhookRecord, WebhookRepository, WebhookView,
} from '@board/webhooks';

/**
 * WebhookRepository in memory: webhooks and their deliveries (test deliveries only: no feed here).
 * A claim holds a due delivery until its try is recorded (no lease runs out, no holder dies here).
 */
export class InMemoryWebhookRepository extends WebhookRepository {
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly deliveryRows: (DeliveryView & { projectId: string; webhookId: string })[] = [];
  /** The lease of each claimed delivery, by its id. */
  readonly leases = new Map<string, string>();
  private next = 0;

  async insert(webhook: Omit<WebhookRecord, 'createdAt'>): Promise<void> {
    this.webhooks.set(webhook.id, { ...webhook, kinds: [...webhook.kinds], createdAt: new Date(Date.UTC(2026, 0, 1)) });
  }

  async find(projectId: string, id: string): Promise<WebhookRecord | null> {
    const webhook = this.webhooks.get(id);
    return webhook?.projectId === projectId ? { ...webhook, kinds: [...webhook.kinds] } : null;
  }

  async update(webhook: WebhookRecord): Promise<void> {
    this.webhooks.set(webhook.id, { ...webhook, kinds: [...webhook.kinds] });
  }

  async enqueueTest(projectId: string, webhookId: string, at: Date): Promise<string[]> {
    const id = `delivery-${++this.next}`;
    this.deliveryRows.push({
      id, projectId, webhookId, kind: 'test', taskKey: null, status: 'pending', tries: 0, lastCode: null, lastError: null, createdAt: at, nextTryAt: at, deliveredAt: null,
    });
    return [id];
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.find(projectId, id)) !== null && this.webhooks.delete(id);
  }

  async list(projectId: string, only?: string): Promise<WebhookView[]> {
    const views = await Promise.all([...this.webhooks.values()].filter((w) => w.projectId === projectId && (!only || w.id === only)).map((w) => this.view(projectId, w.id)));
    return views.flatMap((v) => (v ? [v] : []));
  }

  async view(projectId: string, id: string): Promise<WebhookView | null> {
    const webhook = await this.find(projectId, id);
    if (!webhook) return null;
    const [lastDelivery = null] = (await this.deliveries(projectId, id)).slice(-1);
    const { url, kinds, enabled, secret, createdAt } = webhook;
    return { id, url, kinds, enabled, secretPrefix: secret.slice(0, 8), createdAt, lastDelivery };
  }

  async deliveries(projectId: string, webhookId: string): Promise<DeliveryView[]> {
    return this.deliveryRows.filter((d) => d.projectId === projectId && d.webhookId === webhookId).map(viewOf);
  }

  async delivery(projectId: string, id: string): Promise<DeliveryView | null> {
    const row = this.deliveryRows.find((d) => d.projectId === projectId && d.id === id);
    return row ? viewOf(row) : null;
  }

  async count(projectId: string, webhookId: string): Promise<number> {
    return (await this.deliveries(projectId, webhookId)).length;
  }

  async claimDue(now: Date, limit: number): Promise<DueDelivery[]> {
    const due = this.deliveryRows.filter((d) => d.status === 'pending' && d.nextTryAt !== null && d.nextTryAt <= now && !this.leases.has(d.id)).slice(0, limit);
    return due.map((d) => {
      const lease = `lease-${++this.next}`;
      this.leases.set(d.id, lease);
      const { url, secret } = this.webhooks.get(d.webhookId)!;
      return { id: d.id, projectId: d.projectId, webhookId: d.webhookId, url, secret, body: JSON.stringify({ delivery: d.id, kind: d.kind }), tries: d.tries, lease };
    });
  }

  async finishTry(delivery: DueDelivery, outcome: TryOutcome): Promise<void> {
    if (this.leases.get(delivery.id) !== delivery.lease) return;
    this.leases.delete(delivery.id);
    const row = this.deliveryRows.find((d) => d.id === delivery.id)!;
    Object.assign(row, {
      tries: row.tries + 1,
      status: outcome.status,
      nextTryAt: outcome.nextTryAt,
      lastCode: outcome.code,
      lastError: outcome.error,
      deliveredAt: outcome.status === 'delivered' ? outcome.now : null,
    });
  }

  async prune(): Promise<void> {}
}

const viewOf = ({ projectId: _p, webhookId: _w, ...view }: DeliveryView & { projectId: string; webhookId: string }): DeliveryView => ({ ...view });
