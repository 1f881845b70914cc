import { rankOffers } from '@board/kernel';
import type { MoveTask } from './commands';
import type { MovePlace, RankGap } from './ports';

/** Ranks a move or a create offers for its place: more than the writers that usually meet at one spot. */
export const RANK_OFFERS = 32;

/** `beforeId` wins over `afterId`; neither is the end. */
export function movePlace(command: Pick<MoveTask, 'beforeId' | 'afterId'>): MovePlace {
  if (command.beforeId) return { side: 'before', anchorId: command.beforeId };
  if (command.afterId) return { side: 'after', anchorId: command.afterId };
  return { side: 'end', anchorId: null };
}

/**
 * The ranks a move offers for a gap, in the order it takes them: the first is the one a move alone
 * takes, then each the next mover to the same place takes — straight after the anchor (nearer and
 * nearer to it), straight before it, or at the end. A move that waited for another one into its
 * gap then takes the next offer without reading again.
 */
export function moveOffers(place: MovePlace, gap: RankGap, n = RANK_OFFERS): string[] {
  return rankOffers(gap.lo?.position ?? null, gap.hi?.position ?? null, n, place.side === 'after' ? 'low' : 'high');
}
