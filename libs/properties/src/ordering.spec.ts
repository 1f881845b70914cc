import { ranksAfter } from '@board/kernel';
import { placeAfter, positionAfterLast } from './ordering';

const [r1, r2, r3] = ranksAfter(null, 3);
const items = [
  { id: 'c', position: r3 },
  { id: 'a', position: r1 },
  { id: 'b', position: r2 },
];
const order = (list: { id: string; position: string }[]) =>
  [...list].sort((x, y) => (x.position < y.position ? -1 : x.position > y.position ? 1 : 0)).map((i) => i.id);
const move = (selfId: string, afterId: string | null) => {
  const position = placeAfter(items, selfId, afterId);
  return position === null ? null : order(items.map((i) => (i.id === selfId ? { ...i, position } : i)));
};

describe('placeAfter', () => {
  it('moves after the named sibling', () => {
    expect(move('a', 'b')).toEqual(['b', 'a', 'c']);
    expect(move('a', 'c')).toEqual(['b', 'c', 'a']);
    expect(move('c', 'a')).toEqual(['a', 'c', 'b']);
  });

  it('moves to the front for null or an unknown id', () => {
    expect(move('c', null)).toEqual(['c', 'a', 'b']);
    expect(move('b', 'zzz')).toEqual(['b', 'a', 'c']);
  });

  it('answers null when it already sits there', () => {
    expect(move('a', null)).toBeNull();
    expect(move('b', 'a')).toBeNull();
    expect(move('c', 'b')).toBeNull();
    expect(move('b', 'b')).toBeNull();
  });
});

describe('positionAfterLast', () => {
  it('answers a position after every given one', () => {
    expect(positionAfterLast([r2, r3, r1]) > r3).toBe(true);
    expect(typeof positionAfterLast([])).toBe('string');
  });
});
