import { fail, OPTION_COLORS, readText } from '@board/kernel';
import { OPTION_NAME_MAX } from './property-type';

/** Option names clash when equal after trimming and lower-casing (the database index says the same). */
export const optionKey = (name: string): string => name.trim().toLowerCase();

export function readOptionName(value: unknown, required: true): string;
export function readOptionName(value: unknown, required: boolean): string | undefined;
export function readOptionName(value: unknown, required: boolean): string | undefined {
  return readText(value, 'name', { max: OPTION_NAME_MAX, required });
}

const COLOR = /^#[0-9a-f]{6}$/i;
export const isHexColor = (value: unknown): value is string => typeof value === 'string' && COLOR.test(value);

/** The option palette in order, starting at the first colour no option of the property uses yet. */
export function nextOptionColor(used: string[]): string {
  const taken = new Set(used.map((c) => c.toLowerCase()));
  return OPTION_COLORS.find((c) => !taken.has(c)) ?? OPTION_COLORS[used.length % OPTION_COLORS.length];
}

/** Options given at property create: blanks dropped, at most `max`, duplicates by case or spaces refused. */
export function readInitialOptions(propertyName: string, value: unknown, max: number): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail('option.names_not_list');
  const names: string[] = [];
  const seen = new Map<string, string>();
  for (const raw of value as unknown[]) {
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const name = readOptionName(raw, true);
    if (seen.has(optionKey(name))) fail('property.duplicate_option', { property: propertyName, option: name });
    seen.set(optionKey(name), name);
    names.push(name);
    if (names.length === max) break;
  }
  return names;
}

/** Cycles through the twelve option colours. */
export const paletteColor = (index: number): string => OPTION_COLORS[index % OPTION_COLORS.length];
