import { fail, InTurn } from '@board/kernel';
import type { Placement } from './ports';

/**
 * What the task routes ask for, read once by their request DTOs (text trimmed and checked, ids
 * checked and in lower case): the services take them as they are. A value (`value`, `values`) is
 * carried as sent: what it may be is its property's type, stored, so the domain reads it after the
 * load, in the contract's order; a field refused only after stored state waits its turn (`InTurn`).
 */
export interface CreateTask {
  title: string;
  description: string;
  placement: Placement;
  /** The `values` field as sent (`readCreateValues`). */
  values: unknown;
}

export interface EditTask {
  title?: string;
  description?: string;
  /** The text each was edited from; a clash is refused (`isTextClash`). */
  baseTitle?: string;
  baseDescription?: string;
}

export interface MoveTask {
  /** Where the task goes: before or after another task, else at the end. */
  beforeId: string | null;
  afterId: string | null;
  /** The `values` field as sent (`readValuesMap`). */
  values: unknown;
}

export interface PutValue {
  /** The value as sent (`readOneValue`). */
  value: unknown;
}

/** A bulk value's `change`: add the option to a multi-select, or take it off; null: the value replaces theirs. */
export type BulkChange = 'add' | 'remove';

/** `change` as sent: absent or null is none; else `add` or `remove`. */
export function readBulkChange(value: unknown): BulkChange | null {
  if (value === undefined || value === null) return null;
  if (value !== 'add' && value !== 'remove') fail('bulk.change_invalid');
  return value;
}

export interface BulkValues {
  taskIds: string[];
  propertyId: string;
  /** Refused only once the property is found (the contract's order): it waits its turn. */
  change: InTurn<BulkChange | null>;
  /** The value as sent: what it may be is the property's type (`normalizeValue`). */
  value: unknown;
}

/** Named tasks, or the column of a property's value (missing and null: the tasks holding nothing). */
export type BulkArchive = { taskIds: string[] } | { propertyId: string; value: unknown };

export interface AddBlocker {
  blockerId: string;
}

export interface SetParent {
  parentId: string;
}
