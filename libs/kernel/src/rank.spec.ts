import fc from 'fast-check';
import { isValidRank, RANK_DIGITS, rankBetween, rankOffers, ranksAfter, ranksBefore } from './rank';

const BASE62 = /^[0-9A-Za-z]+$/;

/** Every neighbour pair strictly ascending by plain `<` (UTF-16 code units, which is byte order for ASCII). */
function expectStrictlySorted(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    if (!(keys[i - 1] < keys[i])) throw new Error(`not ascending at ${i}: ${keys[i - 1]} !< ${keys[i]}`);
  }
}

function expectBetween(key: string, a: string | null, b: string | null): void {
  expect(isValidRank(key)).toBe(true);
  expect(key).toMatch(BASE62);
  if (a !== null) expect(a < key).toBe(true);
  if (b !== null) expect(key < b).toBe(true);
}

describe('RANK_DIGITS', () => {
  it('are the 62 digits in code-unit order (digits, then A-Z, then a-z)', () => {
    expect(RANK_DIGITS).toHaveLength(62);
    expect([...RANK_DIGITS].sort().join('')).toBe(RANK_DIGITS);
    expect('9' < 'A' && 'Z' < 'a').toBe(true);
  });
});

describe('rankBetween', () => {
  it('starts an empty list with a0', () => {
    expect(rankBetween(null, null)).toBe('a0');
  });

  it('answers a key strictly between its bounds for null/null, null/b, a/null and a/b', () => {
    const first = rankBetween(null, null);
    expectBetween(first, null, null);

    const before = rankBetween(null, first);
    expectBetween(before, null, first);

    const after = rankBetween(first, null);
    expectBetween(after, first, null);

    const middle = rankBetween(first, after);
    expectBetween(middle, first, after);

    const lowerMiddle = rankBetween(before, first);
    expectBetween(lowerMiddle, before, first);
  });

  it('finds room between keys that differ only in their fraction and across integer lengths', () => {
    const pairs: [string, string][] = [
      ['a0', 'a1'],
      ['a0', 'a0V'],
      ['a0V', 'a1'],
      ['a1', 'a10001'],
      ['az', 'b00'],
      ['Zz', 'a0'],
      ['Zzzzz', 'a0'],
      ['b00', 'b01'],
      ['a0zzzz', 'a1'],
      ['A00000000000000000000000001', 'a0'],
    ];
    for (const [a, b] of pairs) {
      expect(isValidRank(a)).toBe(true);
      expect(isValidRank(b)).toBe(true);
      expectBetween(rankBetween(a, b), a, b);
    }
  });

  it('throws when a is not before b', () => {
    expect(() => rankBetween('a1', 'a0')).toThrow('rank a1 is not before a0');
    expect(() => rankBetween('a0', 'a0')).toThrow('rank a0 is not before a0');
    expect(() => rankBetween('b00', 'az')).toThrow('rank b00 is not before az');
  });

  it('throws on an invalid bound', () => {
    expect(() => rankBetween('a00', null)).toThrow('invalid rank: a00');
    expect(() => rankBetween(null, '')).toThrow('invalid rank: ');
    expect(() => rankBetween('a0', 'a1!')).toThrow('invalid rank: a1!');
  });

  it('keeps 5,000 consecutive appends short and sorted', () => {
    const keys: string[] = [];
    let last: string | null = null;
    for (let i = 0; i < 5000; i++) {
      const key: string = rankBetween(last, null);
      if (last !== null && !(last < key)) throw new Error(`append ${i}: ${key} is not after ${last}`);
      keys.push(key);
      last = key;
    }
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(6);
    expectStrictlySorted(keys);
    expect(new Set(keys).size).toBe(5000);
    expect(keys.every((k) => BASE62.test(k))).toBe(true);
    expect([...keys].sort()).toEqual(keys);
  });

  it('keeps 5,000 consecutive prepends short and sorted, across the a/Z boundary', () => {
    const keys: string[] = [];
    let first: string | null = null;
    for (let i = 0; i < 5000; i++) {
      const key: string = rankBetween(null, first);
      if (first !== null && !(key < first)) throw new Error(`prepend ${i}: ${key} is not before ${first}`);
      keys.unshift(key);
      first = key;
    }
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(6);
    expect(keys.some((k) => k[0] >= 'A' && k[0] <= 'Z')).toBe(true);
    expectStrictlySorted(keys);
    expect([...keys].sort()).toEqual(keys);
  });

  it('matches ranksAfter with repeated appends', () => {
    expect(ranksAfter(null, 3)).toEqual(['a0', 'a1', 'a2']);
    expect(ranksAfter('az', 2)).toEqual(['b00', 'b01']);
    expect(ranksAfter('a5', 0)).toEqual([]);
  });

  it('gives ranksBefore as repeated places at the top, nearest first and each below the last', () => {
    expect(ranksBefore(null, 2)).toEqual([rankBetween(null, null), rankBetween(null, rankBetween(null, null))]);
    const keys = ranksBefore('a5', 40);
    expect(keys[0]).toBe(rankBetween(null, 'a5'));
    for (let i = 1; i < keys.length; i++) expect(keys[i] < keys[i - 1]).toBe(true);
    expect(keys.every((k) => isValidRank(k) && k < 'a5')).toBe(true);
    expect(ranksBefore('a5', 0)).toEqual([]);
  });

  it('offers the keys repeated places at one spot take, each inside the gap the one before left', () => {
    const low = rankOffers('a1', 'a5', 20, 'low');
    expect(low[0]).toBe(rankBetween('a1', 'a5'));
    for (let i = 1; i < low.length; i++) expect(low[i]).toBe(rankBetween('a1', low[i - 1]));
    const high = rankOffers('a1', 'a5', 20, 'high');
    expect(high[0]).toBe(rankBetween('a1', 'a5'));
    for (let i = 1; i < high.length; i++) expect(high[i]).toBe(rankBetween(high[i - 1], 'a5'));
    for (const k of [...low, ...high]) expect('a1' < k && k < 'a5' && isValidRank(k)).toBe(true);
    expect(rankOffers('a5', null, 3, 'high')).toEqual(ranksAfter('a5', 3));
    expect(rankOffers(null, 'a5', 3, 'low')).toEqual(ranksBefore('a5', 3));
    expect(rankOffers('a1', 'a2', 0, 'low')).toEqual([]);
  });

  it('never collides on 3,000 inserts between a fixed left key and the previous insert', () => {
    const left = 'a0';
    const right = 'a1';
    const list = [left, right];
    let previous = right;
    for (let i = 0; i < 3000; i++) {
      const key = rankBetween(left, previous);
      if (!(left < key && key < previous)) throw new Error(`insert ${i}: ${key} not between ${left} and ${previous}`);
      list.splice(1, 0, key);
      previous = key;
    }
    expect(list).toHaveLength(3002);
    expect(new Set(list).size).toBe(3002);
    expectStrictlySorted(list);
    expect([...list].sort()).toEqual(list);
    expect(list.every(isValidRank)).toBe(true);
  });

  it('never collides on 3,000 inserts right after a fixed key, before its old successor, in a longer list', () => {
    // A list of five; every insert goes straight after the second item, so its successor is the
    // key inserted just before.
    const list = ranksAfter(null, 5);
    const fixed = list[1];
    for (let i = 0; i < 3000; i++) {
      const at = list.indexOf(fixed) + 1;
      const key = rankBetween(fixed, list[at]);
      if (!(fixed < key && key < list[at])) throw new Error(`insert ${i}: ${key} not between ${fixed} and ${list[at]}`);
      list.splice(at, 0, key);
    }
    expect(list).toHaveLength(3005);
    expect(new Set(list).size).toBe(3005);
    expectStrictlySorted(list);
    expect([...list].sort()).toEqual(list);
  });

  it('never collides on 3,000 inserts right before a fixed key, after the previous insert', () => {
    const left = 'a0';
    const right = 'a1';
    let previous = left;
    const keys = [left];
    for (let i = 0; i < 3000; i++) {
      const key = rankBetween(previous, right);
      if (!(previous < key && key < right)) throw new Error(`insert ${i}: ${key} not between ${previous} and ${right}`);
      keys.push(key);
      previous = key;
    }
    keys.push(right);
    expect(new Set(keys).size).toBe(3002);
    expectStrictlySorted(keys);
    expect([...keys].sort()).toEqual(keys);
  });

  it('keeps any list strictly sorted and unique for random insert positions (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(), fc.nat({ max: 3 })), { minLength: 1, maxLength: 300, size: 'max' }), (positions) => {
        const list: string[] = [];
        for (const p of positions) {
          const at = p % (list.length + 1);
          const a = at > 0 ? list[at - 1] : null;
          const b = at < list.length ? list[at] : null;
          const key = rankBetween(a, b);
          if (!isValidRank(key) || !BASE62.test(key)) return false;
          if (a !== null && !(a < key)) return false;
          if (b !== null && !(key < b)) return false;
          list.splice(at, 0, key);
        }
        for (let i = 1; i < list.length; i++) if (!(list[i - 1] < list[i])) return false;
        if (new Set(list).size !== list.length) return false;
        // Default .sort() compares code units: the same order the keys were placed in.
        const sorted = [...list].sort();
        return sorted.every((k, i) => k === list[i]);
      }),
      { numRuns: 200 },
    );
  });

  it('always answers a key strictly between two random distinct valid keys (property)', () => {
    const fraction = fc
      .array(fc.constantFrom(...RANK_DIGITS), { maxLength: 6 })
      .map((ds) => ds.join('').replace(/0+$/, ''));
    const key = fc
      .tuple(fc.constantFrom(...'abcXYZ'), fc.array(fc.constantFrom(...RANK_DIGITS), { minLength: 5, maxLength: 5 }), fraction)
      .map(([head, digits, frac]) => {
        const length = head >= 'a' ? head.charCodeAt(0) - 97 + 2 : 90 - head.charCodeAt(0) + 2;
        return head + digits.join('').slice(0, length - 1) + frac;
      });
    fc.assert(
      fc.property(key, key, (x, y) => {
        fc.pre(x !== y && isValidRank(x) && isValidRank(y));
        const [a, b] = x < y ? [x, y] : [y, x];
        const between = rankBetween(a, b);
        return a < between && between < b && isValidRank(between) && BASE62.test(between);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isValidRank', () => {
  it('accepts keys rankBetween makes', () => {
    for (const k of ['a0', 'a1', 'az', 'b00', 'Zz', 'a0V', 'a0001', 'A00000000000000000000000001']) {
      expect(isValidRank(k)).toBe(true);
    }
  });

  it("refuses '', non-strings and keys shorter than their integer part", () => {
    expect(isValidRank('')).toBe(false);
    expect(isValidRank(null)).toBe(false);
    expect(isValidRank(42)).toBe(false);
    expect(isValidRank('a')).toBe(false);
    expect(isValidRank('b0')).toBe(false);
    expect(isValidRank('Z')).toBe(false);
  });

  it("refuses a fraction with a trailing '0'", () => {
    expect(isValidRank('a00')).toBe(false);
    expect(isValidRank('a0V0')).toBe(false);
    expect(isValidRank('b0000')).toBe(false);
    // a zero inside the integer part is fine
    expect(isValidRank('b00')).toBe(true);
  });

  it('refuses characters outside base 62 and a bad head', () => {
    expect(isValidRank('a0-')).toBe(false);
    expect(isValidRank('a0 ')).toBe(false);
    expect(isValidRank('a0é')).toBe(false);
    expect(isValidRank('a0😀')).toBe(false);
    expect(isValidRank('0a')).toBe(false);
    expect(isValidRank('_0')).toBe(false);
  });

  it('refuses the smallest integer, which has no room below it', () => {
    expect(isValidRank('A' + '0'.repeat(26))).toBe(false);
  });
});
