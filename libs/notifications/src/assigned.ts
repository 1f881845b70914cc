import type { ActivityLine } from '@board/kernel';

type Values = Readonly<Record<string, unknown>>;

/** A property as assignment reads it. */
export interface PersonSlot {
  id: string;
  name: string;
  type: string;
}

/**
 * The people a write newly put into a task's person properties: for each person property, those
 * its value names after the write and did not before. Fills `ActivityLine.assigned`.
 */
export function assignedBetween(before: Values, after: Values, defs: readonly PersonSlot[]): NonNullable<ActivityLine['assigned']> {
  const out: { propertyId: string; propertyName: string; userIds: string[] }[] = [];
  for (const def of defs) {
    if (def.type !== 'person') continue;
    const had = new Set(people(before[def.id]));
    const added = people(after[def.id]).filter((id) => !had.has(id));
    if (added.length > 0) out.push({ propertyId: def.id, propertyName: def.name, userIds: added });
  }
  return out;
}

const people = (value: unknown): string[] =>
  typeof value === 'string' && value !== '' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
