import { charLength, isUuid, pgSafeText } from '@board/kernel';
import { isCalendarDay, PropertyDef } from '@board/properties';
import {
  FILTER_TEXT_MAX,
  FilterRule,
  Filters,
  isBareOperator,
  isSetOperator,
  ME,
  NONE,
  operatorsOf,
  SORT_COLUMNS,
  SortSpec,
  USER_ID_MAX,
} from './rules';

export interface CleanContext {
  properties: readonly PropertyDef[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lower case for ids the database keeps in lower case; anything else as is. */
const idCase = (s: string): string => (isUuid(s) ? s.toLowerCase() : s);

/** Properties by lower-cased id; the first of two that differ only by case wins. */
export function propertyIndex(properties: readonly PropertyDef[]): Map<string, PropertyDef> {
  const index = new Map<string, PropertyDef>();
  for (const p of properties) {
    const key = p.id.toLowerCase();
    if (!index.has(key)) index.set(key, p);
  }
  return index;
}

export const findProperty = (index: Map<string, PropertyDef>, id: unknown): PropertyDef | undefined =>
  typeof id === 'string' ? index.get(id.toLowerCase()) : undefined;


/** A rule's text: trimmed, at most 200 characters (trimmed again after the cut), or null when blank. */
export function cleanRuleText(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  // A NUL, or half of a surrogate pair, cannot go into PostgreSQL text or jsonb.
  let text = pgSafeText(raw).trim();
  if (charLength(text) > FILTER_TEXT_MAX) text = [...text].slice(0, FILTER_TEXT_MAX).join('').trim();
  return text === '' ? null : text;
}

/** One member of a set rule as kept, or null when it is not a live value for this property. */
function cleanSetValue(property: PropertyDef, raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  if (raw === NONE) return NONE;
  switch (property.type) {
    case 'checkbox':
      return raw === 'true' || raw === 'false' ? raw : null;
    case 'person': {
      if (raw === ME) return ME;
      // Any user id, member or not: a person who left the project keeps their rules.
      const id = raw.trim();
      if (id === '' || pgSafeText(id) !== id || charLength(id) > USER_ID_MAX) return null;
      return idCase(id);
    }
    default: {
      const id = idCase(raw);
      return property.optionIds.has(id) ? id : null;
    }
  }
}

/** One rule as kept, or null when it is dropped. Does not check that its property is not yet taken. */
export function cleanRule(raw: unknown, index: Map<string, PropertyDef>): FilterRule | null {
  if (!isRecord(raw)) return null;
  const property = findProperty(index, raw.propertyId);
  if (!property) return null;
  const op = raw.op;
  if (typeof op !== 'string' || !operatorsOf(property.type).includes(op)) return null;
  const propertyId = property.id;
  if (isBareOperator(op)) return { propertyId, op };
  if (isSetOperator(op)) {
    if (!Array.isArray(raw.values)) return null;
    const values: string[] = [];
    for (const item of raw.values as unknown[]) {
      const value = cleanSetValue(property, item);
      if (value !== null && !values.includes(value)) values.push(value);
    }
    return values.length > 0 ? { propertyId, op, values } : null;
  }
  const text = cleanRuleText(raw.text);
  if (text === null) return null;
  if (property.type === 'number' && !Number.isFinite(Number(text))) return null;
  if (property.type === 'date' && !isCalendarDay(text)) return null;
  return { propertyId, op, text };
}

/**
 * Cleans a view's filters or a lens, on the way in and on every read: keeps only the rules whose
 * property exists, whose operator fits the type and that have an answer. One property carries one
 * rule: the first rule of a property that survives cleaning wins. Pure and idempotent.
 */
export function cleanFilters(raw: unknown, ctx: CleanContext): Filters {
  if (!isRecord(raw) || !Array.isArray(raw.rules)) return { rules: [] };
  const index = propertyIndex(ctx.properties);
  const rules: FilterRule[] = [];
  const taken = new Set<string>();
  for (const item of raw.rules as unknown[]) {
    const rule = cleanRule(item, index);
    if (!rule || taken.has(rule.propertyId)) continue;
    taken.add(rule.propertyId);
    rules.push(rule);
  }
  return { rules };
}

/**
 * Filters as a request sends them, read for their shape alone and never refused: rules that are
 * not `{ propertyId, op }` in text are dropped, `values` keep their text members, `text` is kept
 * when it is text. Whether a rule survives depends on the project's properties (their types,
 * their live options), so `cleanFilters` judges what this answers once they are loaded; it drops
 * nothing that cleaning would keep (`cleanFilters(readFilters(x))` is `cleanFilters(x)`).
 */
export function readFilters(raw: unknown): Filters {
  if (!isRecord(raw) || !Array.isArray(raw.rules)) return { rules: [] };
  const rules: FilterRule[] = [];
  for (const item of raw.rules as unknown[]) {
    if (!isRecord(item) || typeof item.propertyId !== 'string' || typeof item.op !== 'string') continue;
    const rule: FilterRule = { propertyId: item.propertyId, op: item.op };
    if (Array.isArray(item.values)) rule.values = (item.values as unknown[]).filter((v): v is string => typeof v === 'string');
    if (typeof item.text === 'string') rule.text = item.text;
    rules.push(rule);
  }
  return { rules };
}

/** A sort as a request sends it, read for its shape alone (never refused): a column and a direction, else none. */
export function readSort(raw: unknown): SortSpec | null {
  if (!isRecord(raw)) return null;
  const { columnId, direction } = raw;
  if (direction !== 'asc' && direction !== 'desc') return null;
  return typeof columnId === 'string' ? { columnId, direction } : null;
}

/** A view's sort (or lensSort): null when absent or naming a gone column or a wrong direction. */
export function cleanSort(raw: unknown, properties: readonly PropertyDef[]): SortSpec | null {
  const sort = readSort(raw);
  if (!sort) return null;
  const { columnId, direction } = sort;
  if (SORT_COLUMNS.includes(columnId)) return { columnId, direction };
  const property = findProperty(propertyIndex(properties), columnId);
  return property ? { columnId: property.id, direction } : null;
}
