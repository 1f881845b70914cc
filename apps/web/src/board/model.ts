import type { Board, BoardTask, FilterRule, Property, View } from '../api/types';
import { NONE } from '../api/types';
import { orderTasks } from '../../../../libs/views/src/view-order';

/** The properties a view may group by: a roadmap by dated options, a board or list also by person or checkbox (libs/views view.ts). */
export function groupableProperties(board: Board, kind: View['kind']): Property[] {
  return board.properties.filter((p) => (kind === 'roadmap' ? p.type === 'select' || p.type === 'iteration' : ['select', 'iteration', 'person', 'checkbox'].includes(p.type)));
}

export interface Column { id: string; name: string; color: string | null; value: unknown; tasks: BoardTask[] }

export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Columns are a client construction: one per option / member / checkbox state, plus the no-value column. */
export function buildColumns(board: Board, groupBy: Property | undefined, tasks: BoardTask[]): Column[] {
  if (!groupBy) return [{ id: 'all', name: 'All tasks', color: null, value: undefined, tasks }];
  const checkbox = groupBy.type === 'checkbox';
  const none: Column = { id: NONE, name: checkbox ? `${groupBy.name}: no` : `No ${groupBy.name}`, color: null, value: null, tasks: [] };
  let columns: Column[];
  if (checkbox) {
    columns = [{ id: 'true', name: `${groupBy.name}: yes`, color: null, value: true, tasks: [] }, none];
  } else if (groupBy.type === 'person') {
    columns = [none, ...board.members.map((m) => ({ id: m.id, name: m.name, color: m.color, value: m.id as unknown, tasks: [] as BoardTask[] }))];
  } else {
    columns = [none, ...groupBy.options.map((o) => ({ id: o.id, name: o.name, color: o.color, value: o.id as unknown, tasks: [] as BoardTask[] }))];
  }
  const byId = new Map(columns.map((c) => [c.id, c]));
  for (const t of tasks) {
    const v = t.values[groupBy.id];
    const key = checkbox ? (v === true ? 'true' : NONE) : typeof v === 'string' ? v : NONE;
    (byId.get(key) ?? none).tasks.push(t);
  }
  return columns;
}

/** The column a task sits in, by its value of the grouping property. */
export function columnIdOf(task: BoardTask, groupBy: Property | undefined): string {
  if (!groupBy) return 'all';
  const v = task.values[groupBy.id];
  if (groupBy.type === 'checkbox') return v === true ? 'true' : NONE;
  return typeof v === 'string' ? v : NONE;
}

/** Filter semantics of interface.md: every rule passes; values of one rule are an or; is_not keeps empties. */
export function passes(task: BoardTask, rules: FilterRule[], properties: Map<string, Property>, meId: string): boolean {
  for (const rule of rules) {
    const prop = properties.get(rule.propertyId);
    if (!prop) continue;
    if (!passesRule(task.values[prop.id], rule, prop, meId)) return false;
  }
  return true;
}

function passesRule(v: unknown, rule: FilterRule, prop: Property, meId: string): boolean {
  const empty = isEmpty(v) || (prop.type === 'checkbox' && v !== true);
  switch (rule.op) {
    case 'empty':
      return prop.type === 'checkbox' ? v !== true : isEmpty(v);
    case 'not_empty':
      return !empty;
    case 'is':
    case 'is_not': {
      const wanted = (rule.values ?? []).map((x) => (x === '__me__' ? meId : x));
      let hit: boolean;
      if (prop.type === 'checkbox') hit = wanted.includes(v === true ? 'true' : 'false');
      else {
        const held = Array.isArray(v) ? (v as string[]) : isEmpty(v) ? [] : [String(v)];
        hit = (held.length === 0 && wanted.includes(NONE)) || held.some((h) => wanted.includes(h));
      }
      return rule.op === 'is' ? hit : !hit || (isEmpty(v) && !wanted.includes(NONE));
    }
    case 'contains':
    case 'not_contains': {
      const hay = (Array.isArray(v) ? (v as string[]) : isEmpty(v) ? [] : [String(v)]).map((s) => s.toLowerCase());
      const needle = (rule.text ?? '').toLowerCase();
      const hit = hay.some((h) => h.includes(needle));
      return rule.op === 'contains' ? hit : !hit;
    }
    case 'eq':
    case 'gt':
    case 'lt': {
      if (isEmpty(v)) return false;
      const a = Number(v), b = Number(rule.text);
      return rule.op === 'eq' ? a === b : rule.op === 'gt' ? a > b : a < b;
    }
    case 'on':
    case 'before':
    case 'after': {
      if (isEmpty(v)) return false;
      const a = String(v), b = rule.text ?? '';
      return rule.op === 'on' ? a === b : rule.op === 'before' ? a < b : a > b;
    }
  }
  return true;
}

export const OPS: Record<string, string[]> = {
  select: ['is', 'is_not'], iteration: ['is', 'is_not'], multi_select: ['is', 'is_not'], person: ['is', 'is_not'],
  checkbox: ['is'], text: ['contains', 'not_contains', 'empty', 'not_empty'], link: ['contains', 'not_contains', 'empty', 'not_empty'],
  number: ['eq', 'gt', 'lt', 'empty', 'not_empty'], date: ['on', 'before', 'after', 'empty', 'not_empty'],
};
export const OP_LABEL: Record<string, string> = {
  is: 'is', is_not: 'is not', contains: 'contains', not_contains: 'does not contain', empty: 'is empty', not_empty: 'is not empty',
  eq: '=', gt: '>', lt: '<', on: 'on', before: 'before', after: 'after',
};

export function visibleTasks(board: Board, view: View | undefined, meId: string): BoardTask[] {
  if (!view) return board.tasks;
  const props = new Map(board.properties.map((p) => [p.id, p]));
  const rules = [...view.filters.rules, ...(view.lens?.rules ?? [])];
  const kept = rules.length ? board.tasks.filter((t) => passes(t, rules, props, meId)) : board.tasks;
  const names = new Map(board.members.map((m) => [m.id, m.name]));
  // The caller's order (lensSort, else the view's sort, else the shared rank): the view read's own rule.
  return orderTasks(kept, view.lensSort ?? view.sort, { properties: board.properties, nameOf: (id) => names.get(id) });
}

/** Whether a `when` rule hides this property for the task. */
export function hiddenFor(prop: Property, values: Record<string, unknown>): boolean {
  const when = prop.config?.when;
  if (!when) return false;
  const v = values[when.propertyId];
  return !(typeof v === 'string' && when.optionIds.includes(v));
}
