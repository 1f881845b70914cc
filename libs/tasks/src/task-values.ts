import { AssignedPeople, fail, parseId } from '@board/kernel';
import { changesByLine, changesData, createdLineData, SelectChanges, selectChanges } from '@board/charts';
import {
  cleanDefaults, clearedValue, DroppedValue, dropHiddenValues, findTypeProperty, isEmptyValue, normalizeValue, PropertyDef, StoredValue, TaskValues, ValueContext,
} from '@board/properties';

/**
 * The value rules of a task, shared by every write that sets values (one value, bulk values, a
 * create, a move): reading sent values against the project's properties, applying them with the
 * `when` rules, and what the write tells (its feed lines' data and the people it assigned).
 */

/** Reads a `values` body field: an object keyed by property ids of this project. */
export function readValuesMap(raw: unknown, defs: readonly PropertyDef[], context: ValueContext): Map<string, StoredValue> {
  const out = new Map<string, StoredValue>();
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) fail('task.values_not_object');
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const id = parseId(key, 'property');
    const def = defs.find((d) => d.id === id);
    if (!def) fail('property.not_in_project');
    out.set(id, normalizeValue(def, value, context));
  }
  return out;
}

/** The `values` field of a move or a create sends nothing to write (absent, null or `{}`): no definitions to read. */
export function sendsNoValues(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0);
}

/** Applies written values over a task's values, then the `when` rules. */
export function applyValues(
  current: Readonly<TaskValues>,
  written: ReadonlyMap<string, StoredValue>,
  defs: readonly PropertyDef[],
): { values: TaskValues; dropped: DroppedValue[] } {
  const next: TaskValues = { ...current };
  for (const [id, value] of written) {
    if (isEmptyValue(value)) delete next[id];
    else next[id] = value;
  }
  return dropHiddenValues(defs, next);
}

/** The `values` field of a create request, checked, with Type defaults and `when` rules applied. */
export function readCreateValues(raw: unknown, defs: readonly PropertyDef[], context: ValueContext): TaskValues {
  return valuesForCreate(readValuesMap(raw, defs, context), defs, context);
}

/** One sent value for the property `propertyId` of the project, checked. */
export function readOneValue(raw: unknown, defs: readonly PropertyDef[], propertyId: string, context: ValueContext): { def: PropertyDef; value: StoredValue } {
  const def = defs.find((d) => d.id === propertyId);
  if (!def) fail('property.not_in_project');
  return { def: def, value: normalizeValue(def, raw, context) };
}

/**
 * A new task's values: what was sent, then the Type's defaults for every property the request
 * did not send (an explicit value, null included, wins), then the `when` rules.
 */
export function valuesForCreate(sent: ReadonlyMap<string, StoredValue>, defs: readonly PropertyDef[], context: ValueContext): TaskValues {
  const values = new Map(sent);
  const type = findTypeProperty(defs);
  const typeValue = type ? sent.get(type.id) : undefined;
  if (type && typeof typeValue === 'string') {
    for (const def of defs) {
      if (sent.has(def.id)) continue;
      // Read afresh like config.defaults: only types that can carry one, only values that still read back.
      const fallback = cleanDefaults(def, type, context)[typeValue];
      if (fallback !== undefined) values.set(def.id, fallback);
    }
  }
  return applyValues({}, values, defs).values;
}

/** Option names by id and people's names by user id: what a value's feed line shows. */
export type ValueNames = ReadonlyMap<string, string>;

/** What a `value` feed line carries, and the people its write newly assigned through its property. */
export interface ValueLine {
  propertyId: string;
  data: Record<string, unknown>;
  assigned: AssignedPeople[];
}

/** What writing values onto a task did. */
export interface ValueChange {
  /** Whether the task's values changed (a write that changed nothing tells nothing). */
  changed: boolean;
  /** Values a `when` rule now hides, deleted by the same write. */
  dropped: DroppedValue[];
  /** One `value` line per written property whose value changed or that dropped others, in write order. */
  lines: ValueLine[];
}

/**
 * The new values of a write and what it tells, decided on the values alone (the `Task` applies
 * it). `names` must hold the names of the written options and people (`namesShown`): what is
 * missing shows as its id.
 */
export function planValues(before: Readonly<TaskValues>, written: ReadonlyMap<string, StoredValue>, defs: readonly PropertyDef[], names: ValueNames): ValueChange & { values: TaskValues } {
  const { values, dropped } = applyValues(before, written, defs);
  const changed = !sameValues(before, values);
  const lines: ValueLine[] = [];
  if (changed) {
    const told = [...written].filter(([propertyId, value]) => !lineless(before, propertyId, value, dropped));
    const changes = changesByLine(selectChanges(before, values, defs), told.map(([propertyId]) => propertyId));
    const assigned = assignedPeople(before, values, defs);
    for (const [i, [propertyId, value]] of told.entries()) {
      // Written values were read against these definitions: the lookup cannot miss.
      const def = defs.find((d) => d.id === propertyId) ?? fail('property.not_in_project');
      lines.push({ propertyId, data: valueLineData(def, value, dropped, names, changes[i]), assigned: assigned.filter((a) => a.propertyId === propertyId) });
    }
  }
  return { values, changed, dropped, lines };
}

/** The `created` line of a new task: its selects (for charts) and everyone its person values name. */
export function createdLine(values: Readonly<TaskValues>, defs: readonly PropertyDef[]): { data: Record<string, unknown>; assigned: AssignedPeople[] } {
  return { data: createdLineData(values, defs), assigned: assignedPeople({}, values, defs) };
}

/** The ids of options and people a write of `written` would name in its feed lines. */
export function namesShown(written: ReadonlyMap<string, StoredValue>, defs: readonly PropertyDef[]): { options: Map<string, string[]>; people: string[] } {
  const options = new Map<string, string[]>();
  const people: string[] = [];
  for (const [propertyId, value] of written) {
    const def = defs.find((d) => d.id === propertyId);
    if (!def || isEmptyValue(value)) continue;
    const ids = Array.isArray(value) ? (value as string[]) : [String(value)];
    if (def.type === 'select' || def.type === 'iteration' || def.type === 'multi_select') options.set(def.id, ids);
    else if (def.type === 'person') people.push(...ids);
  }
  return { options, people };
}

/** People a person property holds after a write and did not hold before, by property. */
export function assignedPeople(before: Readonly<TaskValues>, after: Readonly<TaskValues>, defs: readonly PropertyDef[]): AssignedPeople[] {
  const out: AssignedPeople[] = [];
  for (const def of defs) {
    if (def.type !== 'person') continue;
    const had = new Set(peopleOf(before[def.id]));
    const userIds = peopleOf(after[def.id]).filter((id) => !had.has(id));
    if (userIds.length > 0) out.push({ propertyId: def.id, propertyName: def.name, userIds });
  }
  return out;
}

const peopleOf = (value: StoredValue | undefined): string[] => (isEmptyValue(value ?? null) ? [] : Array.isArray(value) ? (value as string[]) : [String(value)]);

/**
 * Same keys, same values (key order aside; a key holding `undefined` counts as absent, as in JSON).
 * Compared key by key: every value write asks this, and sorting and printing both wholes cost more.
 */
export function sameValues(a: Readonly<TaskValues>, b: Readonly<TaskValues>): boolean {
  const keys = definedKeys(a);
  if (keys.length !== definedKeys(b).length) return false;
  return keys.every((key) => b[key] !== undefined && JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

const definedKeys = (o: Readonly<Record<string, unknown>>) => Object.keys(o).filter((key) => o[key] !== undefined);

/** A value write that leaves no feed line: the property's value did not change and nothing was dropped. */
function lineless(before: Readonly<TaskValues>, propertyId: string, value: StoredValue, dropped: readonly DroppedValue[]): boolean {
  return dropped.length === 0 && JSON.stringify(before[propertyId] ?? null) === JSON.stringify(isEmptyValue(value) ? null : value);
}

/** Feed data of a value line: the property's and the value's names, plus what a hiding write dropped. */
function valueLineData(def: PropertyDef, value: StoredValue, dropped: DroppedValue[], names: ValueNames, changes: SelectChanges): Record<string, unknown> {
  const data: Record<string, unknown> = { property: def.name, value: describeValue(def, value, names), ...changesData(changes) };
  if (dropped.length > 0) {
    data.dropped = dropped.map((d) => d.name);
    data.propertyIds = dropped.map((d) => d.propertyId);
    data.hidBy = def.type === 'select' && typeof value === 'string' ? value : null;
  }
  return data;
}

/** The names of the options or people a value names, as a feed line shows them. */
function describeValue(def: PropertyDef, value: StoredValue, names: ValueNames): unknown {
  if (isEmptyValue(value)) return clearedValue(def.type);
  if (def.type === 'select' || def.type === 'iteration' || def.type === 'multi_select') {
    const ids = Array.isArray(value) ? (value as string[]) : [value as string];
    const shown = ids.map((id) => names.get(id) ?? id);
    return Array.isArray(value) ? shown : shown[0];
  }
  if (def.type === 'person') return names.get(value as string) ?? value;
  return value;
}

/** A value a write dropped from a task, as a write's answer lists it. */
export interface DroppedRow {
  taskId: string;
  propertyId: string;
  name: string;
}

export const droppedRows = (taskId: string, dropped: readonly DroppedValue[]): DroppedRow[] => dropped.map((d) => ({ taskId, propertyId: d.propertyId, name: d.name }));
