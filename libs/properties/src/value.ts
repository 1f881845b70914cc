import { DomainError, ErrorCode } from '@board/kernel';
import { PropertyDef } from './property';

export const TEXT_VALUE_MAX = 2000;
export const LINKS_MAX = 20;
export const LINK_LENGTH_MAX = 2000;

export type StoredValue = string | number | boolean | string[] | null;

/** A task's values: property id → stored value, sparse (a property holding nothing has no key). */
export type TaskValues = Record<string, StoredValue>;

export interface ValueContext {
  /** User ids of the project's members, agents included. */
  memberIds: ReadonlySet<string>;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cleared value of a type: null, or [] for lists. */
export const clearedValue = (type: string): StoredValue => (type === 'multi_select' || type === 'link' ? [] : null);

/** Empty means nothing worth keeping: null, "" or []. The board's values map leaves such keys out. */
export const isEmptyValue = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * The one validator behind the value PUT, task create, move and bulk values: checks a sent value
 * against its property and answers what is stored.
 */
export function normalizeValue(property: PropertyDef, raw: unknown, context: ValueContext): StoredValue {
  const name = property.name;
  const refuse = (code: ConstructorParameters<typeof DomainError>[0]): never => {
    throw new DomainError(code, { name });
  };
  if (raw === null || raw === undefined || raw === '') return clearedValue(property.type);
  switch (property.type) {
    case 'select':
    case 'iteration': {
      if (typeof raw !== 'string') return refuse('value.select');
      const id = (raw as string).toLowerCase();
      if (!UUID.test(id) || !property.optionIds.has(id)) return refuse('value.option_gone');
      return id;
    }
    case 'multi_select': {
      if (!Array.isArray(raw)) return refuse('value.multi');
      const ids: string[] = [];
      for (const item of raw as unknown[]) {
        if (typeof item !== 'string') continue;
        const id = item.toLowerCase();
        if (!property.optionIds.has(id)) return refuse('value.option_gone');
        if (!ids.includes(id)) ids.push(id);
      }
      return ids;
    }
    case 'person': {
      if (typeof raw !== 'string') return refuse('value.person');
      const id = (raw as string).toLowerCase();
      if (!context.memberIds.has(id)) return refuse('value.not_member');
      return id;
    }
    case 'text': {
      if (typeof raw !== 'string') return refuse('value.text');
      const chars = [...(raw as string)];
      return chars.length > TEXT_VALUE_MAX ? chars.slice(0, TEXT_VALUE_MAX).join('') : (raw as string);
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return refuse('value.number');
      return n;
    }
    case 'date': {
      if (typeof raw !== 'string' || !isCalendarDay(raw)) return refuse('value.date');
      return raw as string;
    }
    case 'checkbox':
      return raw === true || raw === 'true';
    case 'link':
      return normalizeLinks(raw, refuse);
    default:
      return refuse('value.text');
  }
}

/**
 * What a checked value names and a write must find still there: its property, its options (the
 * select kinds) and its people (person). normalizeValue checked them against the definitions it
 * was given; the one-statement value write checks the same again against the live tables
 * (`valueRefersExist` in libs/persistence), proven to agree by test/integration/value-refers-sql.test.ts.
 */
export function valueRefers(def: PropertyDef, value: StoredValue): { propertyId: string; optionIds: string[]; memberIds: string[] } {
  const ids = isEmptyValue(value) ? [] : Array.isArray(value) ? [...new Set(value as string[])] : [value as string];
  const isOption = def.type === 'select' || def.type === 'iteration' || def.type === 'multi_select';
  return { propertyId: def.id, optionIds: isOption ? ids : [], memberIds: def.type === 'person' ? ids : [] };
}

export function isCalendarDay(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999, which refused 0001-01-01 to 0099-12-31.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function normalizeLinks(raw: unknown, refuse: (code: ErrorCode) => never): string[] {
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list)) return refuse('value.link_list');
  const links: string[] = [];
  const seen = new Set<string>();
  for (const item of list as unknown[]) {
    if (typeof item !== 'string') return refuse('value.link_list');
    const link = item.trim();
    if (link === '') continue;
    if ([...link].length > LINK_LENGTH_MAX) return refuse('value.link_length');
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return refuse('value.link_scheme');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('value.link_scheme');
    // A link that differs from an earlier one only by its #fragment or a trailing slash is the same link.
    const key = link.replace(/#.*$/, '').replace(/\/+$/, '');
    if (seen.has(key)) continue;
    seen.add(key);
    links.push(link);
  }
  if (links.length > LINKS_MAX) return refuse('value.link_count');
  return links;
}

/** Do two stored values say the same? (Bulk writes count only tasks that changed.) */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (isEmptyValue(v) ? null : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}
