/** A filter rule as a view's `filters` or a caller's `lens` keeps it: `{ propertyId, op, values?, text? }`. */
export interface FilterRule {
  propertyId: string;
  op: string;
  values?: string[];
  text?: string;
}

export interface Filters {
  rules: FilterRule[];
}

export type SortDirection = 'asc' | 'desc';

export interface SortSpec {
  columnId: string;
  direction: SortDirection;
}

/** Columns a view can sort on besides its properties. */
export const SORT_COLUMNS: readonly string[] = ['_key', '_title', '_checklist', '_comments', '_created', '_updated'];

/** "Nothing yet": a member of a set that matches an empty value. Allowed on every set rule. */
export const NONE = '__none__';
/** "Whoever reads the board": allowed on person rules only, stored as the word. */
export const ME = '__me__';

/** A rule's text is truncated at this many characters (code points). */
export const FILTER_TEXT_MAX = 200;
/** A person value longer than this cannot be a user id and is dropped. */
export const USER_ID_MAX = 200;

/** Operators that take `values` (a set, read as an or). */
export const SET_OPERATORS: readonly string[] = ['is', 'is_not'];
/** Operators that take neither values nor text. */
export const BARE_OPERATORS: readonly string[] = ['empty', 'not_empty'];

/** The operators each property type allows. */
export const OPERATORS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  select: ['is', 'is_not'],
  iteration: ['is', 'is_not'],
  multi_select: ['is', 'is_not'],
  person: ['is', 'is_not'],
  checkbox: ['is'],
  text: ['contains', 'not_contains', 'empty', 'not_empty'],
  link: ['contains', 'not_contains', 'empty', 'not_empty'],
  number: ['eq', 'gt', 'lt', 'empty', 'not_empty'],
  date: ['on', 'before', 'after', 'empty', 'not_empty'],
});

export const operatorsOf = (type: string): readonly string[] =>
  Object.prototype.hasOwnProperty.call(OPERATORS, type) ? OPERATORS[type] : [];

export const isSetOperator = (op: string): boolean => SET_OPERATORS.includes(op);
export const isBareOperator = (op: string): boolean => BARE_OPERATORS.includes(op);

/**
 * Empty for a filter: a missing key, null, "" or []. (`false` and 0 are values.) Same as the
 * properties' isEmptyValue; the SQL side reads the same four as empty.
 */
export const isEmptyFilterValue = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * Case folding for text rules: ASCII letters only, on both sides. PostgreSQL's lower() follows the
 * database's locale (C, C.UTF-8, en_US... all differ on non-ASCII letters), so the SQL side folds
 * with COLLATE "C", which is ASCII-only everywhere, and this is its exact twin.
 */
export const foldCase = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** A stored date as the date operators compare it. */
export const DAY_SHAPE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
