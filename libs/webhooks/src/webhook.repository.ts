import { DeliveryStatus } from './webhook';

/** A project's webhook as kept; the secret is whole (it signs every body). */
export interface WebhookRecord {
  id: string;
  projectId: string;
  url: string;
  kinds: string[];
  enabled: boolean;
  secret: string;
  createdAt: Date;
}

/** A delivery as every answer shows it (the deliveries list, one delivery, a webhook's last one). */
export interface DeliveryView {
  id: string;
  kind: string;
  taskKey: string | null;
  status: DeliveryStatus;
  tries: number;
  lastCode: number | null;
  lastError: string | null;
  createdAt: Date;
  /** Only while a try is still to come. */
  nextTryAt: Date | null;
  deliveredAt: Date | null;
}

/** A webhook as answered: the secret only as its prefix, with its newest delivery. */
export interface WebhookView {
  id: string;
  url: string;
  kinds: string[];
  enabled: boolean;
  secretPrefix: string;
  createdAt: Date;
  lastDelivery: DeliveryView | null;
}

/** A due delivery as the worker claims it (with its webhook's address and secret). */
export interface DueDelivery {
  id: string;
  projectId: string;
  webhookId: string;
  url: string;
  secret: string;
  body: string;
  tries: number;
  /** Proves the claim: only its holder records the try. */
  lease: string;
}

/** What one try did to a delivery. */
export interface TryOutcome {
  status: DeliveryStatus;
  nextTryAt: Date | null;
  code: number | null;
  error: string | null;
  now: Date;
}

/** Webhooks and their delivery outbox (port; the adapter is in libs/persistence). */
export abstract class WebhookRepository {
  abstract insert(webhook: Omit<WebhookRecord, 'createdAt'>): Promise<void>;
  abstract find(projectId: string, id: string): Promise<WebhookRecord | null>;
  abstract update(webhook: WebhookRecord): Promise<void>;
  /** A `test` delivery with no task for this one webhook (no feed line): the ids of the rows queued. */
  abstract enqueueTest(projectId: string, webhookId: string, at: Date): Promise<string[]>;
  /** Answers whether there was one. */
  abstract delete(projectId: string, id: string): Promise<boolean>;
  /** Every webhook of the project (or only `only`) with its newest delivery, oldest webhook first. */
  abstract list(projectId: string, only?: string): Promise<WebhookView[]>;
  abstract view(projectId: string, id: string): Promise<WebhookView | null>;
  /** The webhook's kept deliveries, newest first. */
  abstract deliveries(projectId: string, webhookId: string): Promise<DeliveryView[]>;
  abstract delivery(projectId: string, id: string): Promise<DeliveryView | null>;
  abstract count(projectId: string, webhookId: string): Promise<number>;
  /**
   * Claims up to `limit` due deliveries for one worker, held by the instance `holder`: kept off the
   * others for `leaseMs`, or until that instance dies (kernel `Liveness`).
   */
  abstract claimDue(now: Date, limit: number, leaseMs: number, holder: string): Promise<DueDelivery[]>;
  /** Records a try if the delivery's claim still holds (a delivery taken over is the new holder's to record). */
  abstract finishTry(delivery: DueDelivery, outcome: TryOutcome): Promise<void>;
  /** Keeps the newest deliveries of a webhook; one still waiting for a try is never dropped unsent. */
  abstract prune(projectId: string, webhookId: string): Promise<void>;
}
