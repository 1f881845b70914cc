import { DAY_SHAPE, foldCase, isEmptyFilterValue } from './rules';
import { planFilters, ReaderContext, RulePlan } from './plan';

/** What evaluation reads of a task: its sparse values map `{ <propertyId>: <stored value> }`. */
export interface FilterableTask {
  values: Readonly<Record<string, unknown>> | null | undefined;
}

/** The strings a value holds: a string is a list of one; a list holds its string members. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const valueOf = (task: FilterableTask, propertyId: string): unknown => {
  const values = task.values;
  if (values === null || typeof values !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(values, propertyId) ? values[propertyId] : undefined;
};

function passes(plan: RulePlan, value: unknown): boolean {
  switch (plan.kind) {
    case 'empty':
      return isEmptyFilterValue(value) !== plan.negate;
    case 'set': {
      const hit = (plan.none && isEmptyFilterValue(value)) || stringsOf(value).some((s) => plan.ids.includes(s));
      return hit !== plan.negate;
    }
    case 'checkbox':
      return (
        (plan.checked && value === true) || (plan.unchecked && value !== true) || (plan.none && isEmptyFilterValue(value))
      );
    case 'contains': {
      const hit = stringsOf(value).some((s) => foldCase(s).includes(plan.needle));
      return hit !== plan.negate;
    }
    case 'number':
      if (typeof value !== 'number') return false;
      return plan.op === 'eq' ? value === plan.number : plan.op === 'gt' ? value > plan.number : value < plan.number;
    case 'date':
      if (typeof value !== 'string' || !DAY_SHAPE.test(value)) return false;
      return plan.op === 'on' ? value === plan.day : plan.op === 'before' ? value < plan.day : value > plan.day;
  }
}

/** Cleans `filters` once and answers a test for many tasks. */
export function filterPredicate(filters: unknown, ctx: ReaderContext): (task: FilterableTask) => boolean {
  const plans = planFilters(filters, ctx);
  return (task) => plans.every((plan) => passes(plan, valueOf(task, plan.propertyId)));
}

/**
 * Does `task` pass `filters` for the reader `ctx.me`? The rules are cleaned first (so a raw or
 * stale rule set reads as it would after a read). Every rule must pass; values within a rule are
 * an or; `is_not` keeps the empties unless its set names `__none__`.
 */
export function evaluate(filters: unknown, task: FilterableTask, ctx: ReaderContext): boolean {
  return filterPredicate(filters, ctx)(task);
}
