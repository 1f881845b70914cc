/** One try of a delivery: where, signed with what, and the body sent byte for byte. */
export interface WebhookSendInput {
  url: string;
  secret: string;
  deliveryId: string;
  /** The raw JSON body, sent and signed byte for byte. */
  body: string;
  now: Date;
  /** Aborts the try (its claim may have gone to another instance): the request is cut and the result fails. */
  signal?: AbortSignal;
}

export interface WebhookSendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** A webhook URL that passed the address rules, with the addresses its name resolved to. */
export interface CheckedWebhookTarget {
  url: URL;
  host: string;
  addresses: string[];
}

/**
 * Outgoing HTTP for webhooks (the port; its adapter in @board/platform sends over node:http).
 * `check` runs the address rules on a URL (parse, resolve afresh, check every address) and throws
 * the `webhook.*` DomainError of a refusal; `send` makes one signed try and never throws.
 */
export abstract class WebhookSender {
  abstract check(rawUrl: unknown): Promise<CheckedWebhookTarget>;
  abstract send(input: WebhookSendInput): Promise<WebhookSendResult>;
}
