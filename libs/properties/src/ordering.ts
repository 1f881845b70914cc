import { rankBetween } from '@board/kernel';

export interface Ranked {
  id: string;
  position: string;
}

const byPosition = (a: Ranked, b: Ranked): number =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The new position that puts `selfId` straight after `afterId` among `items` (its siblings and
 * itself); null or an id that is not a sibling means the front. Answers null when it already
 * sits there (nothing to write).
 */
export function placeAfter(items: readonly Ranked[], selfId: string, afterId: string | null): string | null {
  const sorted = [...items].sort(byPosition);
  const current = sorted.findIndex((i) => i.id === selfId);
  if (afterId === selfId) return null;
  const others = sorted.filter((i) => i.id !== selfId);
  const after = afterId === null ? -1 : others.findIndex((i) => i.id === afterId);
  const target = after + 1;
  if (target === current) return null;
  const before = others[target - 1]?.position ?? null;
  const next = others[target]?.position ?? null;
  // Equal neighbours (never written by this service) leave no room between them: go just after.
  return before !== null && next !== null && before >= next ? rankBetween(before, null) : rankBetween(before, next);
}

/** The position after the last of `positions` (appending). */
export const positionAfterLast = (positions: readonly string[]): string =>
  rankBetween(positions.reduce<string | null>((max, p) => (max === null || p > max ? p : max), null), null);
