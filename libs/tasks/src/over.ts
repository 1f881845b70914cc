import type { TaskValues } from '@board/properties';

/** The options a project calls done. */
export interface DoneWhen {
  propertyId: string;
  optionIds: string[];
}

/** A task is over when its doneWhen property holds one of the done options. */
export function isOver(values: Readonly<TaskValues>, doneWhen: DoneWhen | null): boolean {
  if (!doneWhen) return false;
  const value = values[doneWhen.propertyId];
  if (typeof value === 'string') return doneWhen.optionIds.includes(value);
  if (Array.isArray(value)) return value.some((v) => doneWhen.optionIds.includes(v as string));
  return false;
}

export interface PartState {
  values: Readonly<TaskValues>;
  archived: boolean;
}

/** `{ done, total }` of a task's parts, or null without parts. An archived part counts as done. */
export function countParts(parts: readonly PartState[], doneWhen: DoneWhen | null): { done: number; total: number } | null {
  if (parts.length === 0) return null;
  return { done: parts.filter((p) => p.archived || isOver(p.values, doneWhen)).length, total: parts.length };
}
