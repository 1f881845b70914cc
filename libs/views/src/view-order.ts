/*
 * A view's order of tasks, in TypeScript: the same rule as the ORDER BY of a view read
 * (libs/persistence/src/views/view-sort.sql.ts), proven equal to it on PostgreSQL by
 * test/integration/view-order-sql.test.ts. The board page sorts with it (apps/web/src/board/model.ts),
 * so this file imports nothing: the page's build takes it as it is.
 */

export interface OrderSort {
  columnId: string;
  direction: 'asc' | 'desc';
}

/** What the order reads of a task (the board read's task item has all of it). */
export interface OrderTask {
  id: string;
  position: string;
  number: number;
  title: string;
  checklistDone: number;
  checklistTotal: number;
  commentCount: number;
  createdAt: string;
  updatedAt: string;
  values: Readonly<Record<string, unknown>>;
}

export interface OrderProperty {
  id: string;
  type: string;
  options: readonly { id: string; position: string }[];
}

/** What the order looks up beyond the tasks: the project's properties and a person's name by user id. */
export interface OrderContext {
  properties: readonly OrderProperty[];
  nameOf: (userId: string) => string | null | undefined;
}

type Key = string | number | null;

/**
 * Code-point order, which is UTF-8 byte order (`COLLATE "C"`). JavaScript's `<` compares UTF-16
 * units, which puts a character above U+FFFF (a surrogate pair) before U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointWeight(x) - codePointWeight(y);
  }
  return a.length - b.length;
}

/** Surrogates move above the rest of the BMP; order within each group is kept. */
const codePointWeight = (unit: number): number => (unit >= 0xd800 ? (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000) : unit);

/**
 * PostgreSQL's `lower(text COLLATE "C")`, which the view read sorts by: the ASCII letters A–Z
 * lowered, every other character left as it is, whatever the database's ctype.
 */
export function lowerLikeDatabase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The sort key of one task: null sorts last in either direction. */
function keyOf(task: OrderTask, columnId: string, property: OrderProperty | undefined, positions: ReadonlyMap<string, string>, context: OrderContext): Key {
  switch (columnId) {
    case '_key':
      return task.number;
    case '_title':
      return lowerLikeDatabase(task.title);
    case '_checklist':
      return task.checklistTotal === 0 ? null : task.checklistDone / task.checklistTotal;
    case '_comments':
      return task.commentCount;
    case '_created':
      return Date.parse(task.createdAt);
    case '_updated':
      return Date.parse(task.updatedAt);
  }
  if (!property) return null;
  const value = task.values[property.id];
  switch (property.type) {
    case 'select':
    case 'iteration':
      return typeof value === 'string' ? (positions.get(value) ?? null) : null;
    case 'multi_select': {
      if (!Array.isArray(value)) return null;
      let least: string | null = null;
      for (const id of value) {
        const position = typeof id === 'string' ? positions.get(id) : undefined;
        if (position !== undefined && (least === null || compareCodePoints(position, least) < 0)) least = position;
      }
      return least;
    }
    case 'person': {
      const name = typeof value === 'string' ? context.nameOf(value) : null;
      return typeof name === 'string' ? lowerLikeDatabase(name) : null;
    }
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'checkbox':
      // Never empty: anything but true reads as unchecked.
      return value === true || value === 'true' ? 1 : 0;
    case 'link':
      return Array.isArray(value) && typeof value[0] === 'string' ? lowerLikeDatabase(value[0]) : null;
    case 'date':
      return typeof value === 'string' ? value : null;
    default:
      return typeof value === 'string' && value !== '' ? lowerLikeDatabase(value) : null;
  }
}

const compareKeys = (a: string | number, b: string | number): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : compareCodePoints(String(a), String(b));

/** The shared rank: position byte by byte, then id. */
export const byRankThenId = (a: { position: string; id: string }, b: { position: string; id: string }): number =>
  compareCodePoints(a.position, b.position) || compareCodePoints(a.id, b.id);

/**
 * Tasks in a view's order: the chosen column with empties last in either direction, ties (and no
 * sort, or a sort naming no column of the project) by the shared rank.
 */
export function orderTasks<T extends OrderTask>(tasks: readonly T[], sort: OrderSort | null, context: OrderContext): T[] {
  const columnId = sort?.columnId;
  const builtIn = columnId !== undefined && columnId.startsWith('_');
  const property = columnId === undefined || builtIn ? undefined : context.properties.find((p) => p.id === columnId);
  if (!sort || (!builtIn && !property)) return [...tasks].sort(byRankThenId);
  const positions = new Map<string, string>();
  for (const p of context.properties) for (const o of p.options) positions.set(o.id, o.position);
  const direction = sort.direction === 'desc' ? -1 : 1;
  const keyed = tasks.map((task) => ({ task, key: keyOf(task, sort.columnId, property, positions, context) }));
  keyed.sort((a, b) => {
    if (a.key !== null && b.key !== null) {
      const byKey = compareKeys(a.key, b.key);
      if (byKey !== 0) return byKey * direction;
    } else if (a.key !== b.key) return a.key === null ? 1 : -1;
    return byRankThenId(a.task, b.task);
  });
  return keyed.map((k) => k.task);
}
