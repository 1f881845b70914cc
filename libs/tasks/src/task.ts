import { DAY, fail, readText } from '@board/kernel';
import type { PropertyDef, StoredValue, TaskValues } from '@board/properties';
import { planValues, sameValues, ValueChange, ValueNames } from './task-values';

export const TITLE_MAX = 400;
export const DESCRIPTION_MAX = 20000;
export const DELETION_WINDOW_DAYS = 30;
export const DELETION_WINDOW_MS = DELETION_WINDOW_DAYS * DAY;

/** When a task deleted at `deletedAt` goes for good. */
const goesFor = (deletedAt: Date): Date => new Date(deletedAt.getTime() + DELETION_WINDOW_MS);

export function readTitle(value: unknown, required: true): string;
export function readTitle(value: unknown, required: boolean): string | undefined;
export function readTitle(value: unknown, required: boolean): string | undefined {
  return readText(value, 'title', { max: TITLE_MAX, required });
}

/** A description may be cleared with "" (or null). */
export const readDescription = (value: unknown): string | undefined =>
  readText(value, 'description', { max: DESCRIPTION_MAX, allowEmpty: true });

/**
 * An edit of a task's title or description with a base clashes when the saved text is neither
 * the base nor already the new text (somebody else changed it meanwhile). Without a base, or
 * without a new text, it never clashes. The one home of this rule: the write's SQL does not
 * repeat it (a clash is refused after the statement, and the transaction rolls back).
 */
export function isTextClash(saved: string, next: string | undefined, base: string | undefined): boolean {
  return next !== undefined && base !== undefined && saved !== base && saved !== next;
}

export const taskKey = (projectKey: string, number: number): string => `${projectKey}-${number}`;

export interface TaskProps {
  id: string;
  projectId: string;
  number: number;
  title: string;
  description: string;
  position: string;
  values: TaskValues;
  parentId: string | null;
  archivedAt: Date | null;
  deletedAt: Date | null;
}

/**
 * A task's life: live ⇄ archived, either → deleted (restorable for 30 days, then removed for
 * good by the sweep). Each move answers whether it changed anything, so idempotent calls write
 * and ring nothing.
 */
export class Task {
  private constructor(private props: TaskProps) {}

  static restore(props: TaskProps): Task {
    return new Task({ ...props, values: { ...props.values } });
  }

  get id(): string {
    return this.props.id;
  }
  get projectId(): string {
    return this.props.projectId;
  }
  get number(): number {
    return this.props.number;
  }
  get values(): Readonly<TaskValues> {
    return this.props.values;
  }
  get isArchived(): boolean {
    return this.props.archivedAt !== null;
  }
  get isDeleted(): boolean {
    return this.props.deletedAt !== null;
  }
  get parentId(): string | null {
    return this.props.parentId;
  }
  get snapshot(): Readonly<TaskProps> {
    return this.props;
  }

  /** Archiving an archived task keeps the moment it first went and changes nothing. */
  archive(now: Date): boolean {
    if (this.props.archivedAt) return false;
    this.props.archivedAt = now;
    return true;
  }

  /** Back on the board with the rank it never lost; a live task changes nothing. */
  unarchive(): boolean {
    if (!this.props.archivedAt) return false;
    this.props.archivedAt = null;
    return true;
  }

  /** Deletes the task (archived or not) and answers when it goes for good. */
  delete(now: Date): Date {
    this.props.deletedAt ??= now;
    return goesFor(this.props.deletedAt);
  }

  /** Inside the window the task comes back as it was (archived if it was); past it, it is gone. */
  undelete(now: Date): boolean {
    const { deletedAt } = this.props;
    if (!deletedAt) return false;
    if (now.getTime() >= goesFor(deletedAt).getTime()) fail('task.not_found');
    this.props.deletedAt = null;
    return true;
  }

  get goesAt(): Date | null {
    return this.props.deletedAt ? goesFor(this.props.deletedAt) : null;
  }

  /** Replaces the sparse values map (after validation and the `when` rules). Answers whether it changed. */
  replaceValues(values: TaskValues): boolean {
    const changed = !sameValues(values, this.props.values);
    this.props.values = { ...values };
    return changed;
  }

  /**
   * Writes values read against `defs` (`readValuesMap`, `readOneValue`), then the `when` rules:
   * answers whether the values changed, what the rules dropped, and the `value` lines the write
   * tells (with the people it assigned). `names`: the written options' and people's names.
   */
  putValues(written: ReadonlyMap<string, StoredValue>, defs: readonly PropertyDef[], names: ValueNames): ValueChange {
    const { values, ...change } = planValues(this.props.values, written, defs, names);
    this.props.values = values;
    return change;
  }

  /** `putValues` of one value. */
  putValue(def: PropertyDef, value: StoredValue, defs: readonly PropertyDef[], names: ValueNames): ValueChange {
    return this.putValues(new Map([[def.id, value]]), defs, names);
  }

  setParent(parentId: string | null): boolean {
    const changed = parentId !== this.props.parentId;
    this.props.parentId = parentId;
    return changed;
  }
}
