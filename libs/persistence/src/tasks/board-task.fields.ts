/**
 * The board task's JSON keys, in the contract's order, written once: the object serialiser
 * (`TaskQuery`, `ordered`) and the byte serialiser of the board lists (board-lists.ts,
 * `jsonMembers`) both write their keys from these lists, so they cannot drift apart.
 */
export const TASK_HEAD_FIELDS = ['id', 'number', 'key', 'title', 'description', 'position'] as const;
/** A live task's own row after the head; `values` last, right after `archivedAt` (null while live). */
export const LIVE_TASK_ROW_FIELDS = ['createdAt', 'updatedAt', 'archivedAt', 'values'] as const;
/** What other rows decide (checklist, comments, blockers, parts): the tail of a live task. */
export const LIVE_TASK_TAIL_FIELDS = ['checklistTotal', 'checklistDone', 'commentCount', 'blockedBy', 'parts'] as const;
export const BOARD_TASK_FIELDS = [...TASK_HEAD_FIELDS, ...LIVE_TASK_ROW_FIELDS, ...LIVE_TASK_TAIL_FIELDS] as const;
/** An archived task: the head and when it was archived. */
export const ARCHIVED_TASK_TAIL_FIELDS = ['archivedAt'] as const;
export const ARCHIVED_TASK_FIELDS = [...TASK_HEAD_FIELDS, ...ARCHIVED_TASK_TAIL_FIELDS] as const;

export type BoardTaskField = (typeof BOARD_TASK_FIELDS)[number];
export type ArchivedTaskField = (typeof ARCHIVED_TASK_FIELDS)[number];

/** `"field":`, written once per field name: the board lists write it 50,000 times over. */
const keyTexts = new Map<string, string>();
const keyText = (field: string): string => {
  let text = keyTexts.get(field);
  if (text === undefined) keyTexts.set(field, (text = `${JSON.stringify(field)}:`));
  return text;
};

/** `"k1":v1,"k2":v2…` for `fields` in order, each value already JSON text. */
export function jsonMembers<K extends string>(fields: readonly K[], encoded: Readonly<Record<K, string>>): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) out += (i === 0 ? '' : ',') + keyText(fields[i]) + encoded[fields[i]];
  return out;
}

/** A copy of `values` whose keys are exactly `fields`, in that order (what JSON.stringify writes). */
export function ordered<K extends string, T extends Record<K, unknown>>(fields: readonly K[], values: T): T {
  const out = {} as T;
  for (const field of fields) out[field] = values[field];
  return out;
}

/**
 * What a live task's JSON says just before its values: `values` is the last row field and
 * `archivedAt` (null while live) comes right before it. Titles and descriptions are escaped, so
 * it cannot occur earlier in the task's JSON.
 */
export const VALUES_MARK = jsonMembers(['archivedAt', 'values'] as const, { archivedAt: 'null', values: '' });
if (LIVE_TASK_ROW_FIELDS.slice(-2).join() !== 'archivedAt,values') throw new Error('board task fields: values must follow archivedAt');
