import { fail, rankBetween, readText } from '@board/kernel';

/** At most this many lists per person, and tasks per list (hidden tasks count too). */
export const MAX_LISTS = 50;
export const MAX_LIST_TASKS = 500;
export const LIST_NAME_MAX = 100;

/** A list's (or chart's) name: trimmed, 1–100 characters; missing or null is "Name cannot be empty." */
export function readListName(value: unknown, required: true): string;
export function readListName(value: unknown, required: boolean): string | undefined;
export function readListName(value: unknown, required: boolean): string | undefined {
  if (!required && value === undefined) return undefined;
  return readText(value, 'name', { required: true, max: LIST_NAME_MAX });
}

/** One more list for a person who keeps `count` already. */
export function checkListRoom(count: number): void {
  if (count >= MAX_LISTS) fail('list.too_many');
}

/** One more task for a list that holds `count` already (hidden ones included). */
export function checkTaskRoom(count: number): void {
  if (count >= MAX_LIST_TASKS) fail('list.full');
}

/** Something with a place among its siblings. */
export interface Ranked {
  id: string;
  position: string;
}

/**
 * The rank that puts a row right after `afterId` among `siblings` (in rank order, the moving row
 * left out): first when `afterId` is null or not among them.
 */
export function rankAfter(siblings: readonly Ranked[], afterId: string | null): string {
  const at = afterId === null ? -1 : siblings.findIndex((s) => s.id === afterId);
  if (at < 0) return rankBetween(null, siblings[0]?.position ?? null);
  return rankBetween(siblings[at].position, siblings[at + 1]?.position ?? null);
}

/** The rank after the last of `siblings` (in rank order). */
export function rankAtEnd(siblings: readonly Ranked[]): string {
  return rankBetween(siblings[siblings.length - 1]?.position ?? null, null);
}

/**
 * An `afterId` from a body: absent (undefined), null, or an id. Anything that is not an id reads
 * as "not in the list", which means first.
 */
export function readAfterId(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value.toLowerCase() : null;
}

/** A new list, as its body was read: a name and where it goes (absent: last; null or unknown: first). */
export interface ListCreate {
  name: string;
  afterId?: string | null;
}

/** A change of a list: an absent name keeps the name; a present afterId moves the list (null or unknown: first). */
export interface ListChange {
  name?: string;
  afterId?: string | null;
}

/** Where a task goes in a list: after this task (absent, null or unknown: first). */
export interface ListTaskPlace {
  afterId?: string | null;
}
