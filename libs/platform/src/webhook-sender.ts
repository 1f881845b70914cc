/**
 * Sends one webhook try (interface.md › Webhooks › Delivery): checks the URL with the address
 * rules, resolves the name afresh, checks every address it got, then connects to the checked
 * address itself (no second lookup between check and connect). POST, signed, no redirects,
 * at most `timeoutMs` for the answer, at most 64 KiB of the answer read.
 */
import { createHmac } from 'node:crypto';
import { promises as dns } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { DomainError } from '@board/kernel';
import {
  CheckedWebhookTarget,
  checkAddress,
  checkHostName,
  hostAsAddress,
  parseWebhookUrl,
  WEBHOOK_REFUSALS,
  WebhookSender,
  WebhookSendInput,
  WebhookSendResult,
} from '@board/webhooks';

export interface WebhookSenderOptions {
  /** `SERVICE_WEBHOOK_ALLOW`: hosts, IPs or CIDRs the address rules would refuse but may be reached. */
  allow: string[];
  /** How long a try waits for an answer. Default 5000 ms. */
  timeoutMs?: number;
  /** Resolves a name to all its addresses. Default: `dns.promises.lookup(host, { all: true })`. */
  resolve?: (host: string) => Promise<string[]>;
}

export const WEBHOOK_USER_AGENT = 'task-board-webhooks';
const MAX_ANSWER_BYTES = 64 * 1024;
/** What a try cut short by its signal answers (the worker records nothing of it). */
const ABORTED: WebhookSendResult = { ok: false, status: null, error: 'aborted' };

/** `sha256=<hex>`: HMAC-SHA256 with the secret over `<timestamp>.<raw body>`. */
export function signWebhook(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const defaultResolve = async (host: string): Promise<string[]> =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The contract sentence of a refusal, or null when the error is something else. */
const refusal = (error: unknown): string | null =>
  (error instanceof DomainError && WEBHOOK_REFUSALS[error.code]) || null;

/** The webhook sender over node:http / node:https. */
export class HttpWebhookSender extends WebhookSender {
  private readonly allow: string[];
  private readonly timeoutMs: number;
  private readonly resolve: (host: string) => Promise<string[]>;

  constructor(options: WebhookSenderOptions) {
    super();
    this.allow = [...options.allow];
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.resolve = options.resolve ?? defaultResolve;
  }

  /**
   * The whole address check, as done before every try: parse the URL, resolve the name (a host
   * that is an address is not looked up) and check every address. Throws the kernel's
   * `DomainError` (a `webhook.*` code, its sentence in `WEBHOOK_REFUSALS`) for a refusal, and the
   * resolver's own error when the name does not resolve. For the routes to call when a webhook
   * is saved; `send` calls it too.
   */
  async check(rawUrl: unknown): Promise<CheckedWebhookTarget> {
    const url = parseWebhookUrl(rawUrl);
    const host = url.hostname;
    checkHostName(host, this.allow);
    const literal = hostAsAddress(host);
    const addresses = literal !== null ? [literal] : await this.resolve(host.endsWith('.') ? host.slice(0, -1) : host);
    if (addresses.length === 0) throw new Error(`${host} has no address`);
    for (const address of addresses) checkAddress(host, address, this.allow);
    return { url, host, addresses };
  }

  /** One try. Never throws: a refusal, a network error, a timeout or an abort is a failed result. */
  async send(input: WebhookSendInput): Promise<WebhookSendResult> {
    if (input.signal?.aborted) return ABORTED;
    let target: CheckedWebhookTarget;
    try {
      target = await this.check(input.url);
    } catch (error) {
      const sentence = refusal(error);
      if (sentence !== null) return { ok: false, status: null, error: sentence };
      return { ok: false, status: null, error: `lookup failed: ${(error as Error)?.message ?? String(error)}` };
    }
    const address = target.addresses[0];
    const family = isIP(address);
    if (family === 0) return { ok: false, status: null, error: `not an address: ${address}` };

    const timestamp = Math.floor(input.now.getTime() / 1000);
    const body = Buffer.from(input.body, 'utf8');
    const headers: http.OutgoingHttpHeaders = {
      Host: target.url.host,
      'Content-Type': 'application/json',
      'Content-Length': body.length,
      'User-Agent': WEBHOOK_USER_AGENT,
      'X-Service-Delivery': input.deliveryId,
      'X-Service-Timestamp': String(timestamp),
      'X-Service-Signature': signWebhook(input.secret, timestamp, input.body),
      Connection: 'close',
    };
    // The socket goes to the checked address and nowhere else: a name is "resolved" by a lookup
    // that answers exactly that address; an address host needs no lookup at all.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const secure = target.url.protocol === 'https:';
    const isName = hostAsAddress(target.host) === null;
    const request: https.RequestOptions = {
      method: 'POST',
      host: isName ? target.host : address,
      port: target.url.port === '' ? (secure ? 443 : 80) : Number(target.url.port),
      path: `${target.url.pathname}${target.url.search}`,
      headers,
      lookup,
      // A fresh connection each try: a kept-alive socket could still point at an older address.
      agent: false,
      ...(secure && isName ? { servername: target.host.endsWith('.') ? target.host.slice(0, -1) : target.host } : {}),
    };

    return new Promise<WebhookSendResult>((settle) => {
      let status: number | null = null;
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      let req: http.ClientRequest | undefined;
      const abort = () => finish(ABORTED);
      const finish = (result: WebhookSendResult) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        input.signal?.removeEventListener('abort', abort);
        req?.destroy();
        settle(result);
      };
      const byStatus = (code: number): WebhookSendResult =>
        code >= 200 && code < 300
          ? { ok: true, status: code, error: null }
          : { ok: false, status: code, error: code >= 300 && code < 400 ? `HTTP ${code} (redirects are not followed)` : `HTTP ${code}` };

      req = (secure ? https : http).request(request, (res) => {
        status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) finish(byStatus(status as number));
        });
        res.on('end', () => finish(byStatus(status as number)));
        res.on('error', () => finish(byStatus(status as number)));
      });
      timer = setTimeout(() => finish(status === null ? { ok: false, status: null, error: 'timeout' } : byStatus(status)), this.timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        finish(status === null ? { ok: false, status: null, error: error.code ?? error.message } : byStatus(status));
      });
      if (input.signal?.aborted) return abort();
      input.signal?.addEventListener('abort', abort, { once: true });
      req.end(body);
    });
  }
}
