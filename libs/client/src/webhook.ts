/**
 * Verifies a webhook delivery the way interface.md › Events › Webhooks asks a receiver to: the
 * `X-Service-Signature` is `sha256=<hex>` HMAC-SHA256 with the secret over `<timestamp>.<raw body>`,
 * checked over the raw bytes before any JSON parsing and compared in constant time (Web Crypto's
 * HMAC verify), and `X-Service-Timestamp` must lie within `toleranceSeconds` of now.
 * Web Crypto only, so it runs in Node 20, browsers, workers and edge runtimes alike.
 */
export interface VerifyWebhookInput {
  /** The webhook's secret (`svcs_…`), as shown once at creation or roll. */
  secret: string;
  /** The delivery's headers: a `Headers`, or Node's `IncomingMessage['headers']` / a plain record (any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The body exactly as received: bytes, or the string they decode to. */
  rawBody: string | Uint8Array | ArrayBuffer;
  /** Largest accepted distance between the signing time and now; the contract says five minutes. */
  toleranceSeconds?: number;
  /** Now, for tests: a Date or milliseconds since the epoch. */
  now?: Date | number;
}

export type VerifyWebhookResult =
  | { ok: true; deliveryId: string | null; timestamp: number }
  | { ok: false; reason: 'missing_headers' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature' };

const encoder = new TextEncoder();

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function hexBytes(hex: string): Uint8Array | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesOf(raw: VerifyWebhookInput['rawBody']): Uint8Array {
  if (typeof raw === 'string') return encoder.encode(raw);
  return raw instanceof Uint8Array ? raw : new Uint8Array(raw);
}

/** Answers whether the delivery is genuine and fresh; never throws for a bad delivery. */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifyWebhookResult> {
  const { secret, headers, rawBody, toleranceSeconds = 300 } = input;
  const timestampText = header(headers, 'x-service-timestamp');
  const signature = header(headers, 'x-service-signature');
  if (!timestampText || !signature) return { ok: false, reason: 'missing_headers' };
  const given = signature.startsWith('sha256=') ? hexBytes(signature.slice(7)) : null;
  if (!given || !/^[0-9]{1,12}$/.test(timestampText)) return { ok: false, reason: 'malformed_signature' };
  const timestamp = Number(timestampText);
  const nowMs = input.now === undefined ? Date.now() : typeof input.now === 'number' ? input.now : input.now.getTime();
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale_timestamp' };

  const body = bytesOf(rawBody);
  const signed = new Uint8Array(timestampText.length + 1 + body.length);
  signed.set(encoder.encode(`${timestampText}.`), 0);
  signed.set(body, timestampText.length + 1);
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  // HMAC verify compares in constant time (Web Crypto), unlike comparing hex strings with ===.
  const valid = await globalThis.crypto.subtle.verify('HMAC', key, given, signed);
  if (!valid) return { ok: false, reason: 'bad_signature' };
  return { ok: true, deliveryId: header(headers, 'x-service-delivery') ?? null, timestamp };
}
