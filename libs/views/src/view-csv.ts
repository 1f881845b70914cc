import { PropertyDef } from '@board/properties';

/** A task as a CSV row reads it. */
export interface CsvTask {
  number: number;
  title: string;
  values: Readonly<Record<string, unknown>>;
  createdAt: Date;
  updatedAt: Date;
}

/** A cell: text, or a number's value (which is never neutralised: `-3` is a number, not a formula). */
export type CsvCell = string | number;

/** Spreadsheets run a cell that starts with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@]/;

/** A text cell a spreadsheet will show as text: a leading formula character gets a `'` before it. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The header row: Key, Title, the properties' names in display order, Created, Updated. */
export function csvHeader(defs: readonly Pick<PropertyDef, 'name'>[]): CsvCell[] {
  return ['Key', 'Title', ...defs.map((d) => neutralised(d.name)), 'Created', 'Updated'];
}

/**
 * One task's row (extensions.md § 3.4): option and person names joined by `; `, checkboxes
 * `true`/`false`, dates as stored (`YYYY-MM-DD`), timestamps ISO 8601 UTC. `names` holds the
 * project's option and people names by id; an id it does not know (a value whose option went
 * meanwhile) reads as nothing rather than as a bare id.
 */
export function csvRow(key: string, defs: readonly PropertyDef[], task: CsvTask, names: ReadonlyMap<string, string>): CsvCell[] {
  return [
    `${key}-${task.number}`,
    neutralised(task.title),
    ...defs.map((def) => csvValue(def, task.values[def.id], names)),
    task.createdAt.toISOString(),
    task.updatedAt.toISOString(),
  ];
}

function csvValue(def: PropertyDef, value: unknown, names: ReadonlyMap<string, string>): CsvCell {
  if (def.type === 'checkbox') return value === true ? 'true' : 'false';
  if (value === undefined || value === null) return '';
  switch (def.type) {
    case 'select':
    case 'iteration':
    case 'person':
    case 'multi_select': {
      const ids = Array.isArray(value) ? (value as unknown[]) : [value];
      return neutralised(ids.map((id) => (typeof id === 'string' ? names.get(id) : undefined)).filter((n) => n !== undefined).join('; '));
    }
    case 'number':
      return typeof value === 'number' ? value : neutralised(String(value));
    case 'link':
      return neutralised((Array.isArray(value) ? (value as unknown[]) : [value]).map(String).join('; '));
    default:
      return neutralised(String(value));
  }
}
