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

/** The days a read asks for, each read by the request DTO: null is the default (absent or empty). */
export interface DaysAsked {
  from: Date | null;
  to: Date | null;
}

/** One end of a range as a query sends it: absent or empty is the default (null), else a calendar day. */
export function readDayAsked(value: unknown, name: 'From' | 'To'): Date | null {
  if (value === undefined || value === '') return null;
  return parseDay(value) ?? fail('chart.day_invalid', { name });
}

/**
 * The days a chart read covers: `to` defaults to today (UTC), `from` to 29 days before `to`;
 * both ends count; at most 366 days. Only this needs the clock, so it follows the read days.
 */
export function dayRange(asked: DaysAsked, now: Date): DayRange {
  const to = asked.to ?? startOfDay(now);
  const from = asked.from ?? new Date(to.getTime() - DEFAULT_SPAN_DAYS * DAY);
  if (from.getTime() > to.getTime()) fail('chart.range_order');
  const count = Math.round((to.getTime() - from.getTime()) / DAY) + 1;
  if (count > MAX_CHART_DAYS) fail('chart.too_many_days');
  const days = Array.from({ length: count }, (_, i) => dayText(new Date(from.getTime() + i * DAY)));
  return { from: days[0], to: days[days.length - 1], days };
}
