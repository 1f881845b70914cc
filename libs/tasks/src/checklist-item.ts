import { rankBetween, readText } from '@board/kernel';

export const CHECKLIST_TEXT_MAX = 400;

/** `{ id, taskId, text, done, position }`: one line of a task's checklist. */
export interface ChecklistItem {
  id: string;
  projectId: string;
  taskId: string;
  text: string;
  done: boolean;
  position: string;
}

/** What a checklist answer shows of an item. */
export interface ChecklistItemView {
  id: string;
  taskId: string;
  text: string;
  done: boolean;
  position: string;
}

export const checklistItemView = (item: ChecklistItem): ChecklistItemView => ({
  id: item.id,
  taskId: item.taskId,
  text: item.text,
  done: item.done,
  position: item.position,
});

export type ChecklistAction = 'added' | 'checked' | 'unchecked' | 'edited' | 'deleted';

/** Required, trimmed, at most 400 characters ("Text cannot be empty.", "Text is too long (max 400 characters)."). */
export const readChecklistText = (value: unknown): string => readText(value, 'text', { max: CHECKLIST_TEXT_MAX, required: true });

/**
 * A new item goes last: items cannot be reordered, so the rank only records the order they
 * were added in.
 */
export function newChecklistItem(input: { id: string; projectId: string; taskId: string; text: unknown; lastPosition: string | null }): ChecklistItem {
  return {
    id: input.id,
    projectId: input.projectId,
    taskId: input.taskId,
    text: readChecklistText(input.text),
    done: false,
    position: rankBetween(input.lastPosition, null),
  };
}

/** A PATCH of an item: each part optional; `baseText` is the text the writer started from. */
export interface ChecklistPatch {
  text?: string;
  done?: boolean;
  baseText?: string;
}

/**
 * Reads `{ text?, done?, baseText? }`. `done` is coerced from any JSON value as JavaScript's
 * `Boolean` would (`"no"` and `[]` tick, `0`, `""` and `null` untick). A null `baseText` is no base.
 */
export function readChecklistPatch(body: Record<string, unknown>): ChecklistPatch {
  const patch: ChecklistPatch = {};
  if (body.text !== undefined) patch.text = readChecklistText(body.text);
  if ('done' in body && body.done !== undefined) patch.done = Boolean(body.done);
  if (body.baseText !== undefined && body.baseText !== null) {
    patch.baseText = readText(body.baseText, 'baseText', { allowEmpty: true });
  }
  return patch;
}

/** Neither text nor tick: nothing to write, whatever the base says. */
export const isEmptyChecklistPatch = (patch: ChecklistPatch): boolean => patch.text === undefined && patch.done === undefined;

/**
 * With a base, an item whose saved text is neither the base nor already the new text clashed
 * with somebody else's edit: nothing is written, the tick included.
 */
export function isChecklistClash(savedText: string, patch: ChecklistPatch): boolean {
  if (patch.baseText === undefined) return false;
  return savedText !== patch.baseText && savedText !== patch.text;
}

/** The item as the patch leaves it (before any clash check). */
export function applyChecklistPatch(item: { text: string; done: boolean }, patch: ChecklistPatch): { text: string; done: boolean } {
  return { text: patch.text ?? item.text, done: patch.done ?? item.done };
}

/**
 * The one feed action a change writes: a new text is `edited` even when the tick moved too;
 * a tick alone is `checked` or `unchecked`; no change is null (nothing to record).
 */
export function checklistAction(before: { text: string; done: boolean }, after: { text: string; done: boolean }): ChecklistAction | null {
  if (before.text !== after.text) return 'edited';
  if (before.done !== after.done) return after.done ? 'checked' : 'unchecked';
  return null;
}

/**
 * Storage of checklist items. Every method keeps to the project and to live tasks: an item of
 * a deleted task is not found.
 */
export abstract class ChecklistRepository {
  abstract find(projectId: string, itemId: string): Promise<ChecklistItem | null>;
  /**
   * Locks the live task's row until the transaction ends, so adds to one task take turns (their
   * ranks) while other tasks' go on; false when the task is not a live task of the project.
   */
  abstract lockTask(projectId: string, taskId: string): Promise<boolean>;
  /** Rank of the task's last item, or null when it has none. */
  abstract lastPosition(projectId: string, taskId: string): Promise<string | null>;
  /** Inserts the item; false when the task is not a live task of the project. */
  abstract insert(item: ChecklistItem): Promise<boolean>;
  /**
   * Compare and write in one statement: writes the patch only when the item changes and, with
   * a base, its saved text is still the base (or already the new text). Answers the item before
   * and after, or null when nothing was written (gone, clash or no change: ask `find`).
   */
  abstract write(projectId: string, itemId: string, patch: ChecklistPatch): Promise<{ before: ChecklistItem; after: ChecklistItem } | null>;
  /** Removes the item; answers it, or null when it was not there. */
  abstract remove(projectId: string, itemId: string): Promise<ChecklistItem | null>;
  /** Marks the task changed (`updated_at`). */
  abstract touchTask(projectId: string, taskId: string, now: Date): Promise<void>;
}
