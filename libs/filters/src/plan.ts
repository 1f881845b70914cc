import { brokenInvariant, isUuid } from '@board/kernel';
import { PropertyDef } from '@board/properties';
import { cleanFilters, findProperty, propertyIndex } from './clean';
import { FilterRule, foldCase, ME, NONE } from './rules';

/**
 * What a cleaned rule asks, with the sentinels resolved for one reader. evaluate() and the SQL
 * compiler in libs/persistence (`filterPlanSql`) both read these, so the two cannot drift apart
 * on what a rule means.
 */
export type RulePlan =
  /** select, iteration, multi_select, person: does the value hold one of `ids` (or is it empty and `none`)? */
  | { kind: 'set'; propertyId: string; negate: boolean; ids: string[]; none: boolean }
  /** checkbox `is`: true, false (missing counts as false), and/or nothing yet. */
  | { kind: 'checkbox'; propertyId: string; checked: boolean; unchecked: boolean; none: boolean }
  /** text, link: does one of the value's strings contain `needle` (both ASCII-folded)? */
  | { kind: 'contains'; propertyId: string; negate: boolean; needle: string }
  | { kind: 'empty'; propertyId: string; negate: boolean }
  | { kind: 'number'; propertyId: string; op: 'eq' | 'gt' | 'lt'; number: number }
  | { kind: 'date'; propertyId: string; op: 'on' | 'before' | 'after'; day: string };

export interface ReaderContext {
  /** The reader's user id; `__me__` matches nobody when null. */
  me: string | null;
  properties: readonly PropertyDef[];
}

/** A cleaned rule that is neither bare nor a set rule kept its text (cleanRule drops it otherwise). */
const textOf = (rule: FilterRule): string => rule.text ?? brokenInvariant('a cleaned text rule carries its text');

/** Cleans `filters` and turns each kept rule into its plan. */
export function planFilters(filters: unknown, ctx: ReaderContext): RulePlan[] {
  const index = propertyIndex(ctx.properties);
  const me = typeof ctx.me === 'string' && ctx.me !== '' ? (isUuid(ctx.me) ? ctx.me.toLowerCase() : ctx.me) : null;
  return cleanFilters(filters, ctx).rules.map((rule): RulePlan => {
    // cleanFilters keeps only rules whose property is in ctx.properties, the list indexed here.
    const property = findProperty(index, rule.propertyId) ?? brokenInvariant('a cleaned filter rule names a property of the board');
    const propertyId = property.id;
    const values = rule.values ?? [];
    switch (rule.op) {
      case 'empty':
      case 'not_empty':
        return { kind: 'empty', propertyId, negate: rule.op === 'not_empty' };
      case 'is':
      case 'is_not': {
        const none = values.includes(NONE);
        if (property.type === 'checkbox') {
          return { kind: 'checkbox', propertyId, checked: values.includes('true'), unchecked: values.includes('false'), none };
        }
        const ids: string[] = [];
        for (const value of values) {
          const id = value === ME ? me : value === NONE ? null : value;
          if (id !== null && !ids.includes(id)) ids.push(id);
        }
        return { kind: 'set', propertyId, negate: rule.op === 'is_not', ids, none };
      }
      case 'contains':
      case 'not_contains':
        return { kind: 'contains', propertyId, negate: rule.op === 'not_contains', needle: foldCase(textOf(rule)) };
      case 'eq':
      case 'gt':
      case 'lt':
        return { kind: 'number', propertyId, op: rule.op, number: Number(rule.text) };
      default:
        return { kind: 'date', propertyId, op: rule.op as 'on' | 'before' | 'after', day: textOf(rule) };
    }
  });
}
