import { createHmac } from 'node:crypto';
import { verifyWebhook } from './webhook';

const secret = 'svcs_0123456789abcdef';
const body = '{"delivery":"d-1","kind":"test"}';
const at = 1_700_000_000;
const sign = (timestamp: string, raw: string, key = secret) => `sha256=${createHmac('sha256', key).update(`${timestamp}.${raw}`).digest('hex')}`;
const headers = (extra: Record<string, string> = {}) => ({ 'X-Service-Timestamp': String(at), 'X-Service-Signature': sign(String(at), body), 'X-Service-Delivery': 'd-1', ...extra });

describe('verifyWebhook', () => {
  it('accepts a signature over <timestamp>.<raw body>, from a record (any case) or a Headers', async () => {
    expect(await verifyWebhook({ secret, headers: headers(), rawBody: body, now: at * 1000 })).toEqual({ ok: true, deliveryId: 'd-1', timestamp: at });
    expect(await verifyWebhook({ secret, headers: new Headers(headers()), rawBody: new TextEncoder().encode(body), now: at * 1000 })).toMatchObject({ ok: true });
  });

  it('refuses missing, malformed and wrong signatures', async () => {
    expect(await verifyWebhook({ secret, headers: {}, rawBody: body, now: at * 1000 })).toEqual({ ok: false, reason: 'missing_headers' });
    const hex = sign(String(at), body).slice(7);
    for (const signature of [hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex.replace(/^../, 'zz')}`]) {
      expect(await verifyWebhook({ secret, headers: headers({ 'X-Service-Signature': signature }), rawBody: body, now: at * 1000 })).toEqual({ ok: false, reason: 'malformed_signature' });
    }
    expect(await verifyWebhook({ secret, headers: headers({ 'X-Service-Timestamp': '1e9' }), rawBody: body, now: at * 1000 })).toEqual({ ok: false, reason: 'malformed_signature' });
    expect(await verifyWebhook({ secret, headers: headers(), rawBody: `${body} `, now: at * 1000 })).toEqual({ ok: false, reason: 'bad_signature' });
    // The timestamp is part of what is signed: moving it breaks the signature.
    expect(await verifyWebhook({ secret, headers: headers({ 'X-Service-Timestamp': String(at + 1) }), rawBody: body, now: at * 1000 })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('holds the tolerance window both ways', async () => {
    expect(await verifyWebhook({ secret, headers: headers(), rawBody: body, now: (at + 300) * 1000 })).toMatchObject({ ok: true });
    expect(await verifyWebhook({ secret, headers: headers(), rawBody: body, now: (at + 301) * 1000 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(await verifyWebhook({ secret, headers: headers(), rawBody: body, now: (at - 301) * 1000 })).toEqual({ ok: false, reason: 'stale_timestamp' });
  });
});
