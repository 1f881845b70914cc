import { ACTIVITY_KINDS, fail, MINUTE } from '@board/kernel';

/** Waits after the 1st, 2nd and 3rd failed try; the 4th failure drops the delivery. */
export const RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE] as const;
export const MAX_TRIES = RETRY_DELAYS_MS.length + 1;
export const DELIVERIES_KEPT = 20;
export const SECRET_PREFIX_LENGTH = 9;

export type DeliveryStatus = 'pending' | 'delivered' | 'dropped';

/** `kinds`: a list of feed kinds (empty means all). `test` is sent by the test route, never named. */
export function readKinds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('webhook.kinds_not_list');
  const kinds: string[] = [];
  for (const kind of value as unknown[]) {
    if (typeof kind !== 'string' || !(ACTIVITY_KINDS as readonly string[]).includes(kind)) fail('webhook.kind_invalid', { kind: String(kind) });
    if (!kinds.includes(kind as string)) kinds.push(kind as string);
  }
  return kinds;
}

export function readEnabled(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail('input.boolean', { field: 'Enabled' });
  return value as boolean;
}

/** What a try's outcome does to a delivery. */
export function afterTry(tries: number, ok: boolean, now: Date): { status: DeliveryStatus; nextTryAt: Date | null } {
  if (ok) return { status: 'delivered', nextTryAt: null };
  if (tries >= MAX_TRIES) return { status: 'dropped', nextTryAt: null };
  return { status: 'pending', nextTryAt: new Date(now.getTime() + RETRY_DELAYS_MS[tries - 1]) };
}
