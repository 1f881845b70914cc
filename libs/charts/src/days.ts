import { DAY, fail } from '@board/kernel';

/** Days asked for at most, both ends counted. */
export const MAX_CHART_DAYS = 366;
/** Without `from`: this many days before `to`. */
export const DEFAULT_SPAN_DAYS = 29;

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` of a calendar day (UTC), as a UTC midnight; anything else is null. */
export function parseDay(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = DAY_TEXT.exec(text);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return dayText(date) === text ? date : null;
}

export const dayText = (date: Date): string => date.toISOString().slice(0, 10);

/** UTC midnight of the day `now` falls in. */
export const startOfDay = (now: Date): Date => new Date(Math.floor(now.getTime() / DAY) * DAY);

export interface DayRange {
  from: string;
  to: string;
  days: string[];
}

/**
 * The days a chart read covers: `to` defaults to today (UTC), `from` to 29 days before `to`;
 * both ends count; at most 366 days.
 */
export function readDayRange(query: { from?: unknown; to?: unknown }, now: Date): DayRange {
  const given = (v: unknown) => v !== undefined && v !== '';
  const to = given(query.to) ? parseDay(query.to) : startOfDay(now);
  if (!to) fail('chart.day_invalid', { name: 'To' });
  const from = given(query.from) ? parseDay(query.from) : new Date(to.getTime() - DEFAULT_SPAN_DAYS * DAY);
  if (!from) fail('chart.day_invalid', { name: 'From' });
  if (from.getTime() > to.getTime()) fail('chart.range_order');
  const count = Math.round((to.getTime() - from.getTime()) / DAY) + 1;
  if (count > MAX_CHART_DAYS) fail('chart.too_many_days');
  const days = Array.from({ length: count }, (_, i) => dayText(new Date(from.getTime() + i * DAY)));
  return { from: days[0], to: days[days.length - 1], days };
}
