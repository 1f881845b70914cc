import type { Placement } from './ports';

/**
 * What the task routes ask for, read once by their request DTOs (text trimmed and checked, ids
 * checked and in lower case): the services take them as they are. A field whose rules need the
 * project's stored state (values, a bulk `change`) is carried as sent and read by the domain after
 * the load, in the contract's order.
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

export interface BulkValues {
  taskIds: string[];
  propertyId: string;
  /** `add` or `remove` as sent: checked once the property is found. */
  change: unknown;
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
