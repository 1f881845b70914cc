import { rankBetween } from '@board/kernel';
import { moveOffers, movePlace } from './task-moves';

describe('movePlace', () => {
  it('lets beforeId win over afterId, and neither is the end', () => {
    expect(movePlace({ beforeId: 'b', afterId: 'a' })).toEqual({ side: 'before', anchorId: 'b' });
    expect(movePlace({ beforeId: null, afterId: 'a' })).toEqual({ side: 'after', anchorId: 'a' });
    expect(movePlace({ beforeId: null, afterId: null })).toEqual({ side: 'end', anchorId: null });
  });
});

describe('moveOffers', () => {
  const lo = { id: 'l', position: 'a1' };
  const hi = { id: 'h', position: 'a2' };

  it('offers first what a move alone takes: the rank between the two neighbours', () => {
    for (const side of ['after', 'before'] as const) expect(moveOffers({ side, anchorId: 'x' }, { lo, hi })[0]).toBe(rankBetween('a1', 'a2'));
    expect(moveOffers({ side: 'end', anchorId: null }, { lo, hi: null })[0]).toBe(rankBetween('a1', null));
    expect(moveOffers({ side: 'end', anchorId: null }, { lo: null, hi: null })[0]).toBe('a0');
  });

  it('then what the next move to the same place takes: nearer the anchor after it, nearer it before it, further on at the end', () => {
    const after = moveOffers({ side: 'after', anchorId: 'l' }, { lo, hi }, 5);
    for (let i = 1; i < 5; i++) expect(after[i]).toBe(rankBetween('a1', after[i - 1]));
    const before = moveOffers({ side: 'before', anchorId: 'h' }, { lo, hi }, 5);
    for (let i = 1; i < 5; i++) expect(before[i]).toBe(rankBetween(before[i - 1], 'a2'));
    const end = moveOffers({ side: 'end', anchorId: null }, { lo, hi: null }, 5);
    for (let i = 1; i < 5; i++) expect(end[i]).toBe(rankBetween(end[i - 1], null));
    // At the top: before the first task, nearer and nearer to it.
    const top = moveOffers({ side: 'before', anchorId: 'l' }, { lo: null, hi: lo }, 3);
    expect(top.every((k) => k < 'a1')).toBe(true);
    expect(top[1] > top[0] && top[2] > top[1]).toBe(true);
  });
});
