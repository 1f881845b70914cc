import { parse } from 'node:querystring';
import { pgSafeText } from '@board/kernel';

/**
 * The query string parser (Fastify `routerOptions.querystringParser`): every key and value is
 * cleaned like a body's strings (`?q=%00` would reach PostgreSQL, which refuses NUL in text).
 * A broken percent-escape is kept as written, as Node's parser does.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of Object.entries(parse(text))) {
    if (value === undefined) continue;
    out[pgSafeText(key)] = Array.isArray(value) ? value.map(pgSafeText) : pgSafeText(value);
  }
  return out;
}

/** Path parameters get the same cleaning (`/invites/%00` would reach SQL as text). */
export function cleanParams(params: unknown): void {
  if (!params || typeof params !== 'object') return;
  const record = params as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (typeof value === 'string') record[key] = pgSafeText(value);
  }
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|([+-])(\d{2}):?(\d{2}))$/;

/**
 * An ISO timestamp from a query string (`2026-01-31T12:00:00.123456Z`, an offset allowed) as the
 * same instant in UTC with its microseconds kept (`…T12:00:00.123456Z`), or null when it is not a
 * real instant PostgreSQL takes: February 30th, hour 24, year 0 or an offset beyond ±15:59 would
 * otherwise fail in SQL.
 */
export function readInstant(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (!daysInMonth || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const [h, mm] = [Number(m[10]), Number(m[11])];
    if (h > 15 || mm > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (h * 60 + mm);
  }
  // setUTCFullYear takes years 0-99 literally (Date.UTC would read them as 19xx).
  const local = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  local.setUTCFullYear(year);
  const utc = new Date(local.getTime() - offsetMinutes * 60_000);
  const y = utc.getUTCFullYear();
  if (y < 1 || y > 9999) return null;
  const fraction = (m[7] ?? '').padEnd(6, '0');
  return `${utc.toISOString().slice(0, 19)}.${fraction}Z`;
}
