import { PropertyDef } from '@board/properties';
import { evaluate, filterPredicate } from './evaluate';
import { isEmptyFilterValue } from './rules';

const P = {
  select: 'a1111111-1111-4111-8111-111111111111',
  multi: 'a2222222-2222-4222-8222-222222222222',
  iteration: 'a3333333-3333-4333-8333-333333333333',
  person: 'a4444444-4444-4444-8444-444444444444',
  text: 'a5555555-5555-4555-8555-555555555555',
  number: 'a6666666-6666-4666-8666-666666666666',
  date: 'a7777777-7777-4777-8777-777777777777',
  checkbox: 'a8888888-8888-4888-8888-888888888888',
  link: 'a9999999-9999-4999-8999-999999999999',
};
const O1 = 'b1111111-1111-4111-8111-111111111111';
const O2 = 'b2222222-2222-4222-8222-222222222222';
const O3 = 'b3333333-3333-4333-8333-333333333333';
const ALICE = 'c1111111-1111-4111-8111-111111111111';
const BOB = 'c2222222-2222-4222-8222-222222222222';

const def = (pid: string, type: string, options: string[] = []): PropertyDef => ({
  id: pid, name: type, type, position: 'a0', config: {}, optionIds: new Set(options),
});
const properties: PropertyDef[] = [
  def(P.select, 'select', [O1, O2, O3]),
  def(P.multi, 'multi_select', [O1, O2, O3]),
  def(P.iteration, 'iteration', [O1, O2]),
  def(P.person, 'person'),
  def(P.text, 'text'),
  def(P.number, 'number'),
  def(P.date, 'date'),
  def(P.checkbox, 'checkbox'),
  def(P.link, 'link'),
];

/** Which of the given values (as the one property's value) pass the rule? */
function passing(propertyId: string, op: string, answer: { values?: string[]; text?: string }, values: unknown[], me: string | null = ALICE) {
  const test = filterPredicate({ rules: [{ propertyId, op, ...answer }] }, { me, properties });
  return values.filter((v) => test({ values: v === undefined ? {} : { [propertyId]: v } }));
}

const MISSING = undefined;

describe('isEmptyFilterValue', () => {
  it('reads a missing key, null, "" and [] as empty, and nothing else', () => {
    for (const v of [undefined, null, '', []]) expect(isEmptyFilterValue(v)).toBe(true);
    for (const v of [false, 0, ' ', [''], 'x', {}]) expect(isEmptyFilterValue(v)).toBe(false);
  });
});

describe('evaluate: the rule set', () => {
  it('passes everything with no rules, or rules that clean away', () => {
    const ctx = { me: null, properties };
    expect(evaluate({ rules: [] }, { values: {} }, ctx)).toBe(true);
    expect(evaluate(null, { values: { [P.select]: O1 } }, ctx)).toBe(true);
    expect(evaluate({ rules: [{ propertyId: P.select, op: 'is', values: ['gone'] }] }, { values: {} }, ctx)).toBe(true);
  });

  it('needs every rule to pass', () => {
    const filters = {
      rules: [
        { propertyId: P.select, op: 'is', values: [O1] },
        { propertyId: P.number, op: 'gt', text: '2' },
      ],
    };
    const ctx = { me: null, properties };
    expect(evaluate(filters, { values: { [P.select]: O1, [P.number]: 3 } }, ctx)).toBe(true);
    expect(evaluate(filters, { values: { [P.select]: O1, [P.number]: 2 } }, ctx)).toBe(false);
    expect(evaluate(filters, { values: { [P.select]: O2, [P.number]: 3 } }, ctx)).toBe(false);
  });

  it('reads a task without a values map as all empty', () => {
    const ctx = { me: null, properties };
    expect(evaluate({ rules: [{ propertyId: P.text, op: 'empty' }] }, { values: null }, ctx)).toBe(true);
    expect(evaluate({ rules: [{ propertyId: P.text, op: 'empty' }] }, { values: undefined }, ctx)).toBe(true);
  });
});

describe('evaluate: select and iteration', () => {
  const all = [MISSING, null, '', O1, O2, O3];
  it('is: the value is one of the set (an or)', () => {
    expect(passing(P.select, 'is', { values: [O1, O3] }, all)).toEqual([O1, O3]);
    expect(passing(P.iteration, 'is', { values: [O2] }, all)).toEqual([O2]);
  });
  it('is with __none__ also takes the empties', () => {
    expect(passing(P.select, 'is', { values: ['__none__'] }, all)).toEqual([MISSING, null, '']);
    expect(passing(P.select, 'is', { values: [O2, '__none__'] }, all)).toEqual([MISSING, null, '', O2]);
  });
  it('is_not keeps the empties, unless the set names __none__', () => {
    expect(passing(P.select, 'is_not', { values: [O1] }, all)).toEqual([MISSING, null, '', O2, O3]);
    expect(passing(P.select, 'is_not', { values: [O1, '__none__'] }, all)).toEqual([O2, O3]);
    expect(passing(P.iteration, 'is_not', { values: ['__none__'] }, all)).toEqual([O1, O2, O3]);
  });
});

describe('evaluate: multi_select', () => {
  const all = [MISSING, null, [], [O1], [O2], [O1, O2], [O3]];
  it('is: any held option is in the set', () => {
    expect(passing(P.multi, 'is', { values: [O1] }, all)).toEqual([[O1], [O1, O2]]);
    expect(passing(P.multi, 'is', { values: [O2, O3] }, all)).toEqual([[O2], [O1, O2], [O3]]);
    expect(passing(P.multi, 'is', { values: ['__none__'] }, all)).toEqual([MISSING, null, []]);
  });
  it('is_not: none of the held options is in the set, empties kept unless __none__', () => {
    expect(passing(P.multi, 'is_not', { values: [O1] }, all)).toEqual([MISSING, null, [], [O2], [O3]]);
    expect(passing(P.multi, 'is_not', { values: [O1, '__none__'] }, all)).toEqual([[O2], [O3]]);
  });
});

describe('evaluate: person', () => {
  const all = [MISSING, null, ALICE, BOB];
  it('is / is_not on user ids', () => {
    expect(passing(P.person, 'is', { values: [BOB] }, all)).toEqual([BOB]);
    expect(passing(P.person, 'is_not', { values: [BOB] }, all)).toEqual([MISSING, null, ALICE]);
  });
  it('__me__ reads as the reader', () => {
    expect(passing(P.person, 'is', { values: ['__me__'] }, all, ALICE)).toEqual([ALICE]);
    expect(passing(P.person, 'is', { values: ['__me__'] }, all, BOB)).toEqual([BOB]);
    expect(passing(P.person, 'is', { values: ['__me__'] }, all, BOB.toUpperCase())).toEqual([BOB]);
    expect(passing(P.person, 'is_not', { values: ['__me__', '__none__'] }, all, ALICE)).toEqual([BOB]);
  });
  it('__me__ matches nobody for a reader with no id', () => {
    expect(passing(P.person, 'is', { values: ['__me__'] }, all, null)).toEqual([]);
    expect(passing(P.person, 'is_not', { values: ['__me__'] }, all, null)).toEqual(all);
  });
  it('a rule naming somebody who left still reads', () => {
    const left = 'cfffffff-ffff-4fff-8fff-ffffffffffff';
    expect(passing(P.person, 'is', { values: [left] }, [...all, left])).toEqual([left]);
  });
});

describe('evaluate: checkbox', () => {
  const all = [MISSING, null, true, false];
  it('"true" and "false"; a missing box is unchecked', () => {
    expect(passing(P.checkbox, 'is', { values: ['true'] }, all)).toEqual([true]);
    expect(passing(P.checkbox, 'is', { values: ['false'] }, all)).toEqual([MISSING, null, false]);
    expect(passing(P.checkbox, 'is', { values: ['true', 'false'] }, all)).toEqual(all);
  });
  it('__none__ takes a box never set', () => {
    expect(passing(P.checkbox, 'is', { values: ['__none__'] }, all)).toEqual([MISSING, null]);
    expect(passing(P.checkbox, 'is', { values: ['true', '__none__'] }, all)).toEqual([MISSING, null, true]);
  });
});

describe('evaluate: text', () => {
  const all = [MISSING, null, '', 'Fix the Bug', 'debugger', 'nothing', 'Ébauche'];
  it('contains: a case-insensitive substring', () => {
    expect(passing(P.text, 'contains', { text: 'BUG' }, all)).toEqual(['Fix the Bug', 'debugger']);
    expect(passing(P.text, 'contains', { text: 'the b' }, all)).toEqual(['Fix the Bug']);
  });
  it('not_contains: the rest, empties included', () => {
    expect(passing(P.text, 'not_contains', { text: 'bug' }, all)).toEqual([MISSING, null, '', 'nothing', 'Ébauche']);
  });
  it('folds ASCII letters only (what PostgreSQL does under COLLATE "C")', () => {
    expect(passing(P.text, 'contains', { text: 'ÉBAU' }, all)).toEqual(['Ébauche']);
    expect(passing(P.text, 'contains', { text: 'ébau' }, all)).toEqual([]);
  });
  it('takes % and _ as themselves', () => {
    expect(passing(P.text, 'contains', { text: '50%' }, ['50% done', '500 done', '5_0'])).toEqual(['50% done']);
    expect(passing(P.text, 'contains', { text: '_' }, ['50% done', '5_0'])).toEqual(['5_0']);
  });
  it('empty / not_empty', () => {
    expect(passing(P.text, 'empty', {}, all)).toEqual([MISSING, null, '']);
    expect(passing(P.text, 'not_empty', {}, all)).toEqual(['Fix the Bug', 'debugger', 'nothing', 'Ébauche']);
    expect(passing(P.text, 'not_empty', {}, [' '])).toEqual([' ']);
  });
});

describe('evaluate: link', () => {
  const a = ['https://example.com/Issues/1'];
  const b = ['http://one.example', 'https://two.example/ISSUES/2'];
  const all = [MISSING, null, [], a, b, ['https://else.example']];
  it('contains: any URL of the list contains the text, case-insensitive', () => {
    expect(passing(P.link, 'contains', { text: 'issues' }, all)).toEqual([a, b]);
    expect(passing(P.link, 'contains', { text: 'one.example' }, all)).toEqual([b]);
  });
  it('not_contains: no URL contains it, empties included', () => {
    expect(passing(P.link, 'not_contains', { text: 'issues' }, all)).toEqual([MISSING, null, [], ['https://else.example']]);
  });
  it('empty / not_empty', () => {
    expect(passing(P.link, 'empty', {}, all)).toEqual([MISSING, null, []]);
    expect(passing(P.link, 'not_empty', {}, all)).toEqual([a, b, ['https://else.example']]);
  });
});

describe('evaluate: number', () => {
  const all = [MISSING, null, -2, 0, 1.5, 3, 10];
  it('eq / gt / lt compare numerically; an empty value fails all three', () => {
    expect(passing(P.number, 'eq', { text: '1.50' }, all)).toEqual([1.5]);
    expect(passing(P.number, 'eq', { text: '0' }, all)).toEqual([0]);
    expect(passing(P.number, 'gt', { text: '2' }, all)).toEqual([3, 10]);
    expect(passing(P.number, 'lt', { text: '1e0' }, all)).toEqual([-2, 0]);
    expect(passing(P.number, 'gt', { text: '-100' }, all)).toEqual([-2, 0, 1.5, 3, 10]);
  });
  it('empty / not_empty (0 is a value)', () => {
    expect(passing(P.number, 'empty', {}, all)).toEqual([MISSING, null]);
    expect(passing(P.number, 'not_empty', {}, all)).toEqual([-2, 0, 1.5, 3, 10]);
  });
});

describe('evaluate: date', () => {
  const all = [MISSING, null, '2023-12-31', '2024-01-01', '2024-02-29'];
  it('on / before / after compare days; an empty value fails all three', () => {
    expect(passing(P.date, 'on', { text: '2024-01-01' }, all)).toEqual(['2024-01-01']);
    expect(passing(P.date, 'before', { text: '2024-01-01' }, all)).toEqual(['2023-12-31']);
    expect(passing(P.date, 'after', { text: '2024-01-01' }, all)).toEqual(['2024-02-29']);
  });
  it('empty / not_empty', () => {
    expect(passing(P.date, 'empty', {}, all)).toEqual([MISSING, null]);
    expect(passing(P.date, 'not_empty', {}, all)).toEqual(['2023-12-31', '2024-01-01', '2024-02-29']);
  });
});

describe('evaluate: values of an unexpected shape', () => {
  it('never match a comparison, and are not empty', () => {
    expect(passing(P.number, 'gt', { text: '0' }, ['5', true, [5]])).toEqual([]);
    expect(passing(P.date, 'before', { text: '2025-01-01' }, [20240101, 'soon', ['2024-01-01']])).toEqual([]);
    expect(passing(P.select, 'is_not', { values: [O1] }, [5, true, { [O1]: 1 }])).toEqual([5, true, { [O1]: 1 }]);
    expect(passing(P.checkbox, 'is', { values: ['true'] }, ['true', 1])).toEqual([]);
  });
});
