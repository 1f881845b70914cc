/**
 * What feed lines carry so that a chart can tell a task's select values on a past day (decisions,
 * Charts: "its last `value` line for that property up to that day, else its value at creation")
 * without replaying the feed in order:
 * - a `created` line, and the `import` line of a task an import brought in (its creation):
 *   `selects`, `{ <propertyId>: <optionId> }` of every select the new task holds;
 * - a `value` line (value writes, bulk edits, moves with values, ships): `changes`,
 *   `{ <propertyId>: [<from optionId>, <to optionId>] }` (null for none) of every select whose
 *   value the write changed: the written one on its own line, those a `when` rule dropped on the
 *   write's first line, so each change is told once. Left out when empty.
 * An option's delete scrubs it from tasks without a line: a chart counts a gone option as none on
 * every day, so the history reads the same.
 * Lines written before these keys existed read as: value at creation unknown (the task's current
 * value stands in), value changes not followed.
 */
export interface SelectDef {
  id: string;
  type: string;
}

export type SelectChanges = Record<string, [string | null, string | null]>;

const optionOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function createdLineData(values: Readonly<Record<string, unknown>>, defs: readonly SelectDef[]): { selects: Record<string, string> } {
  const selects: Record<string, string> = {};
  for (const def of defs) {
    const value = optionOf(values[def.id]);
    if (def.type === 'select' && value !== null) selects[def.id] = value;
  }
  return { selects };
}

/** Every select whose value differs between `before` and `after`, as [from, to]. */
export function selectChanges(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, defs: readonly SelectDef[]): SelectChanges {
  const changes: SelectChanges = {};
  for (const def of defs) {
    if (def.type !== 'select') continue;
    const from = optionOf(before[def.id]);
    const to = optionOf(after[def.id]);
    if (from !== to) changes[def.id] = [from, to];
  }
  return changes;
}

/**
 * The `changes` of each line of one write, in line order (`lineProperties`: the property each
 * line is about): its own property's change, and on the first line the changes no line is about.
 */
export function changesByLine(all: SelectChanges, lineProperties: readonly string[]): SelectChanges[] {
  const told = new Set(lineProperties);
  const rest = Object.entries(all).filter(([id]) => !told.has(id));
  return lineProperties.map((id, i) => {
    const own: SelectChanges = all[id] ? { [id]: all[id] } : {};
    return i === 0 ? { ...own, ...Object.fromEntries(rest) } : own;
  });
}

/** The key a value line gains: `{ changes }`, or nothing when no select changed. */
export const changesData = (changes: SelectChanges): { changes?: SelectChanges } => (Object.keys(changes).length > 0 ? { changes } : {});
