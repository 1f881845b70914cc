/**
 * What feed lines carry so that a chart can tell a task's select values on a past day (decisions,
 * Charts: "its last `value` line for that property up to that day, else its value at creation"):
 * - a `created` line: `selects`, `{ <propertyId>: <optionId> }` of every select the new task holds;
 * - a `value` line of a select: `propertyId` and `optionId` (null when cleared).
 * Lines written before these keys existed read as: creation values unknown (the task's current
 * value stands in), value changes not followed.
 */
export interface SelectDef {
  id: string;
  type: string;
}

export function createdLineData(values: Readonly<Record<string, unknown>>, defs: readonly SelectDef[]): { selects: Record<string, string> } {
  const selects: Record<string, string> = {};
  for (const def of defs) {
    const value = values[def.id];
    if (def.type === 'select' && typeof value === 'string') selects[def.id] = value;
  }
  return { selects };
}

/** The ids a `value` line of `def` adds (none for other types than select). */
export function valueLineIds(def: SelectDef, value: unknown): { propertyId: string; optionId: string | null } | Record<string, never> {
  if (def.type !== 'select') return {};
  return { propertyId: def.id, optionId: typeof value === 'string' && value !== '' ? value : null };
}
