import { DomainError, ranksAfter } from '@board/kernel';
import { checkListRoom, checkTaskRoom, MAX_LIST_TASKS, MAX_LISTS, rankAfter, rankAtEnd, readAfterId, readListName } from './list';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? `${e.code} ${JSON.stringify(e.params)}` : String(e);
  }
  return undefined;
};

describe('list names', () => {
  it('are trimmed and 1 to 100 characters', () => {
    expect(readListName('  Today  ', true)).toBe('Today');
    expect(readListName('x'.repeat(100), true)).toHaveLength(100);
    expect(codeOf(() => readListName('x'.repeat(101), true))).toBe('text.too_long {"field":"Name","max":100}');
    expect(codeOf(() => readListName('   ', true))).toBe('text.empty {"field":"Name"}');
    expect(codeOf(() => readListName(7, true))).toBe('text.not_text {"field":"Name"}');
  });

  it('is required on create, optional on change, and null is never a name', () => {
    expect(codeOf(() => readListName(undefined, true))).toBe('text.empty {"field":"Name"}');
    expect(readListName(undefined, false)).toBeUndefined();
    expect(codeOf(() => readListName(null, false))).toBe('text.empty {"field":"Name"}');
  });
});

describe('limits', () => {
  it('keeps 50 lists and 500 tasks a list', () => {
    expect(() => checkListRoom(MAX_LISTS - 1)).not.toThrow();
    expect(codeOf(() => checkListRoom(MAX_LISTS))).toBe('list.too_many {}');
    expect(() => checkTaskRoom(MAX_LIST_TASKS - 1)).not.toThrow();
    expect(codeOf(() => checkTaskRoom(MAX_LIST_TASKS))).toBe('list.full {}');
  });
});

describe('places', () => {
  const ranks = ranksAfter(null, 3);
  const rows = ['a', 'b', 'c'].map((id, i) => ({ id, position: ranks[i] }));

  it('puts a row right after afterId, first for null or an unknown id, or at the end', () => {
    const between = rankAfter(rows, 'a');
    expect(rows[0].position < between && between < rows[1].position).toBe(true);
    expect(rankAfter(rows, 'c') > rows[2].position).toBe(true);
    expect(rankAfter(rows, null) < rows[0].position).toBe(true);
    expect(rankAfter(rows, 'nobody') < rows[0].position).toBe(true);
    expect(rankAtEnd(rows) > rows[2].position).toBe(true);
    expect(rankAtEnd([])).toBe(rankAfter([], null));
  });

  it('reads afterId as absent, null or a lower-case id', () => {
    expect(readAfterId(undefined)).toBeUndefined();
    expect(readAfterId(null)).toBeNull();
    expect(readAfterId(12)).toBeNull();
    expect(readAfterId('ABC')).toBe('abc');
  });
});
