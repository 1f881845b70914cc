import { PropertyDef } from '@board/properties';
import { cleanFilters, cleanSort } from './clean';
import { OPERATORS, SORT_COLUMNS } from './rules';

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
const GONE_OPTION = 'bdddddd0-dddd-4ddd-8ddd-dddddddddddd';
const ALICE = 'c1111111-1111-4111-8111-111111111111';
const LEFT = 'cfffffff-ffff-4fff-8fff-ffffffffffff';

const def = (pid: string, type: string, options: string[] = []): PropertyDef => ({
  id: pid, name: type, type, position: 'a0', config: {}, optionIds: new Set(options),
});
const properties: PropertyDef[] = [
  def(P.select, 'select', [O1, O2]),
  def(P.multi, 'multi_select', [O1, O2]),
  def(P.iteration, 'iteration', [O1]),
  def(P.person, 'person'),
  def(P.text, 'text'),
  def(P.number, 'number'),
  def(P.date, 'date'),
  def(P.checkbox, 'checkbox'),
  def(P.link, 'link'),
];
const ctx = { properties };
const clean = (...rules: unknown[]) => cleanFilters({ rules }, ctx).rules;
const one = (rule: unknown) => {
  const rules = clean(rule);
  return rules.length === 1 ? rules[0] : null;
};

describe('cleanFilters: the container', () => {
  it('answers no rules for anything that is not { rules: [...] }', () => {
    for (const raw of [undefined, null, 1, 'x', [], true, {}, { rules: null }, { rules: {} }, { rules: 'x' }]) {
      expect(cleanFilters(raw, ctx)).toEqual({ rules: [] });
    }
  });

  it('drops rules that are not objects, name no live property or an operator of another type', () => {
    expect(clean(null, 1, 'x', [], { op: 'is', values: [O1] })).toEqual([]);
    expect(one({ propertyId: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', op: 'is', values: [O1] })).toBeNull();
    expect(one({ propertyId: P.select, op: 'contains', text: 'x' })).toBeNull();
    expect(one({ propertyId: P.select, op: 'IS', values: [O1] })).toBeNull();
    expect(one({ propertyId: P.checkbox, op: 'is_not', values: ['true'] })).toBeNull();
    expect(one({ propertyId: P.text, op: 'eq', text: '1' })).toBeNull();
    expect(one({ propertyId: P.number, op: 'contains', text: '1' })).toBeNull();
    expect(one({ propertyId: P.date, op: 'gt', text: '2024-01-01' })).toBeNull();
    expect(one({ propertyId: P.link, op: 'is', values: ['x'] })).toBeNull();
  });

  it('finds the property whatever the case of its id, and answers it in lower case', () => {
    expect(one({ propertyId: P.select.toUpperCase(), op: 'is', values: [O1.toUpperCase()] })).toEqual({
      propertyId: P.select, op: 'is', values: [O1],
    });
  });

  it('drops extra keys, and never keeps values and text together', () => {
    expect(one({ propertyId: P.select, op: 'is', values: [O1], text: 'x', extra: 1, id: 'y' })).toEqual({
      propertyId: P.select, op: 'is', values: [O1],
    });
    expect(one({ propertyId: P.text, op: 'contains', text: 'x', values: ['y'], extra: 1 })).toEqual({
      propertyId: P.text, op: 'contains', text: 'x',
    });
    expect(one({ propertyId: P.number, op: 'empty', text: '1', values: ['y'] })).toEqual({ propertyId: P.number, op: 'empty' });
  });

  it('keeps one rule per property: the first one that survives', () => {
    expect(
      clean(
        { propertyId: P.select, op: 'is', values: [GONE_OPTION] },
        { propertyId: P.select, op: 'is', values: [O1] },
        { propertyId: P.select, op: 'is_not', values: [O2] },
        { propertyId: P.text, op: 'empty' },
        { propertyId: P.text.toUpperCase(), op: 'not_empty' },
      ),
    ).toEqual([
      { propertyId: P.select, op: 'is', values: [O1] },
      { propertyId: P.text, op: 'empty' },
    ]);
  });

  it('keeps the order of the rules', () => {
    const rules = clean({ propertyId: P.text, op: 'empty' }, { propertyId: P.number, op: 'not_empty' }, { propertyId: P.date, op: 'empty' });
    expect(rules.map((r) => r.propertyId)).toEqual([P.text, P.number, P.date]);
  });

  it('knows the operators of every type', () => {
    expect(OPERATORS).toEqual({
      select: ['is', 'is_not'],
      iteration: ['is', 'is_not'],
      multi_select: ['is', 'is_not'],
      person: ['is', 'is_not'],
      checkbox: ['is'],
      text: ['contains', 'not_contains', 'empty', 'not_empty'],
      link: ['contains', 'not_contains', 'empty', 'not_empty'],
      number: ['eq', 'gt', 'lt', 'empty', 'not_empty'],
      date: ['on', 'before', 'after', 'empty', 'not_empty'],
    });
  });
});

describe('cleanFilters: set rules (is, is_not)', () => {
  it.each([
    ['select', P.select],
    ['multi_select', P.multi],
  ])('%s keeps live options, lower-cased and without repeats', (_type, pid) => {
    expect(one({ propertyId: pid, op: 'is_not', values: [O2, O1.toUpperCase(), O1, O2] })).toEqual({
      propertyId: pid, op: 'is_not', values: [O2, O1],
    });
  });

  it('drops the value of a deleted option, and the rule when nothing live is left', () => {
    expect(one({ propertyId: P.select, op: 'is', values: [GONE_OPTION, O1] })).toEqual({ propertyId: P.select, op: 'is', values: [O1] });
    expect(one({ propertyId: P.select, op: 'is', values: [GONE_OPTION] })).toBeNull();
    expect(one({ propertyId: P.iteration, op: 'is', values: [O2] })).toBeNull(); // an option of another property
  });

  it('needs at least one live value', () => {
    for (const values of [undefined, null, [], 'x', O1, [null, 1, true, {}, ['x']], ['', ' ']]) {
      expect(one({ propertyId: P.select, op: 'is', values })).toBeNull();
    }
  });

  it('takes __none__ as a member of the set on every set type', () => {
    expect(one({ propertyId: P.select, op: 'is', values: ['__none__'] })).toEqual({ propertyId: P.select, op: 'is', values: ['__none__'] });
    expect(one({ propertyId: P.multi, op: 'is_not', values: [O1, '__none__', '__none__'] })).toEqual({
      propertyId: P.multi, op: 'is_not', values: [O1, '__none__'],
    });
    expect(one({ propertyId: P.iteration, op: 'is', values: ['__none__'] })?.values).toEqual(['__none__']);
    expect(one({ propertyId: P.person, op: 'is', values: ['__none__'] })?.values).toEqual(['__none__']);
    expect(one({ propertyId: P.checkbox, op: 'is', values: ['__none__'] })?.values).toEqual(['__none__']);
    expect(one({ propertyId: P.select, op: 'is', values: ['__NONE__'] })).toBeNull();
  });

  it('keeps __me__ on person rules only', () => {
    expect(one({ propertyId: P.person, op: 'is', values: ['__me__', ALICE] })).toEqual({
      propertyId: P.person, op: 'is', values: ['__me__', ALICE],
    });
    expect(one({ propertyId: P.select, op: 'is', values: ['__me__'] })).toBeNull();
    expect(one({ propertyId: P.multi, op: 'is', values: ['__me__', O1] })?.values).toEqual([O1]);
    expect(one({ propertyId: P.checkbox, op: 'is', values: ['__me__'] })).toBeNull();
  });

  it('keeps a person who left the project, lower-cased', () => {
    expect(one({ propertyId: P.person, op: 'is_not', values: [LEFT.toUpperCase()] })).toEqual({
      propertyId: P.person, op: 'is_not', values: [LEFT],
    });
  });

  it('keeps person ids trimmed, dropping blanks and things that cannot be an id', () => {
    expect(one({ propertyId: P.person, op: 'is', values: [` ${ALICE} `, ALICE, '', '  ', 'x'.repeat(201), 'a\u0000b', 7] })?.values).toEqual([
      ALICE,
    ]);
  });

  it('reads checkbox values as the strings "true" and "false" only', () => {
    expect(one({ propertyId: P.checkbox, op: 'is', values: ['true', 'false', 'true'] })?.values).toEqual(['true', 'false']);
    expect(one({ propertyId: P.checkbox, op: 'is', values: [true, false, 'TRUE', 'yes', 1] })).toBeNull();
    expect(one({ propertyId: P.checkbox, op: 'is', values: ['false', false] })?.values).toEqual(['false']);
  });
});

describe('cleanFilters: text rules', () => {
  it('trims and needs non-blank text', () => {
    expect(one({ propertyId: P.text, op: 'contains', text: '  Bug  ' })).toEqual({ propertyId: P.text, op: 'contains', text: 'Bug' });
    for (const text of [undefined, null, '', '   ', 5, ['x'], {}]) {
      expect(one({ propertyId: P.text, op: 'not_contains', text })).toBeNull();
    }
  });

  it('truncates at 200 characters, counting code points', () => {
    expect(one({ propertyId: P.link, op: 'contains', text: 'x'.repeat(250) })?.text).toBe('x'.repeat(200));
    const emoji = '😀'.repeat(201);
    expect([...one({ propertyId: P.text, op: 'contains', text: emoji })!.text!]).toHaveLength(200);
    // Cut then trimmed again, so a second pass changes nothing.
    expect(one({ propertyId: P.text, op: 'contains', text: 'a'.repeat(199) + ' b' })?.text).toBe('a'.repeat(199));
  });

  it('keeps what PostgreSQL can hold: no NUL, no half surrogate pair', () => {
    expect(one({ propertyId: P.text, op: 'contains', text: 'a\u0000b' })?.text).toBe('ab');
    expect(one({ propertyId: P.text, op: 'contains', text: 'a\uD800b' })?.text).toBe('a\uFFFDb');
    expect(one({ propertyId: P.text, op: 'contains', text: '\u0000' })).toBeNull();
  });

  it('number rules need a finite number', () => {
    expect(one({ propertyId: P.number, op: 'gt', text: ' 42 ' })).toEqual({ propertyId: P.number, op: 'gt', text: '42' });
    expect(one({ propertyId: P.number, op: 'eq', text: '-1.5e2' })?.text).toBe('-1.5e2');
    for (const text of ['abc', 'Infinity', '1e999', 'NaN', '1,5', '', ' ']) {
      expect(one({ propertyId: P.number, op: 'lt', text })).toBeNull();
    }
  });

  it('date rules need a calendar day YYYY-MM-DD', () => {
    expect(one({ propertyId: P.date, op: 'before', text: ' 2024-02-29 ' })).toEqual({ propertyId: P.date, op: 'before', text: '2024-02-29' });
    for (const text of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00:00Z', 'today', '']) {
      expect(one({ propertyId: P.date, op: 'on', text })).toBeNull();
    }
  });

  it('empty and not_empty are always kept, with neither values nor text', () => {
    for (const pid of [P.text, P.link, P.number, P.date]) {
      expect(one({ propertyId: pid, op: 'empty', text: 'x' })).toEqual({ propertyId: pid, op: 'empty' });
      expect(one({ propertyId: pid, op: 'not_empty', values: [O1] })).toEqual({ propertyId: pid, op: 'not_empty' });
    }
  });
});

describe('cleanSort', () => {
  it('keeps a live property or one of the named columns, with asc or desc', () => {
    for (const columnId of SORT_COLUMNS) expect(cleanSort({ columnId, direction: 'asc' }, properties)).toEqual({ columnId, direction: 'asc' });
    expect(cleanSort({ columnId: P.number.toUpperCase(), direction: 'desc', extra: 1 }, properties)).toEqual({
      columnId: P.number, direction: 'desc',
    });
  });

  it('reads anything else as null', () => {
    for (const raw of [
      null, undefined, 'asc', [], {},
      { columnId: '_title' },
      { columnId: '_title', direction: 'ASC' },
      { columnId: '_title', direction: 'up' },
      { columnId: '_position', direction: 'asc' },
      { columnId: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', direction: 'asc' },
      { columnId: 7, direction: 'asc' },
    ]) {
      expect(cleanSort(raw, properties)).toBeNull();
    }
  });
});

