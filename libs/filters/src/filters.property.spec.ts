/**
 * Property-based checks: cleaning is idempotent and leaves only well-formed rules, and evaluate()
 * agrees with a plain reference reading of the contract written here on its own.
 */
import fc from 'fast-check';
import { PropertyDef } from '@board/properties';
import { cleanFilters, cleanSort, readFilters, readSort } from './clean';
import { evaluate } from './evaluate';
import { FilterRule, OPERATORS } from './rules';

const TYPES = ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'];
const pid = (i: number) => `a${i}${i}${i}${i}${i}${i}${i}-0000-4000-8000-000000000000`;
const OPTIONS = ['b1111111-1111-4111-8111-111111111111', 'b2222222-2222-4222-8222-222222222222', 'b3333333-3333-4333-8333-333333333333'];
const GONE_OPTION = 'bddddddd-dddd-4ddd-8ddd-dddddddddddd';
const USERS = ['c1111111-1111-4111-8111-111111111111', 'c2222222-2222-4222-8222-222222222222'];
const LEFT = 'cfffffff-ffff-4fff-8fff-ffffffffffff';
const GONE_PROPERTY = 'addddddd-dddd-4ddd-8ddd-dddddddddddd';

const properties: PropertyDef[] = TYPES.map((type, i) => ({
  id: pid(i),
  name: type,
  type,
  position: `a${i}`,
  config: {},
  // Each option property has its own live options; the last one of the pool is live on select only.
  optionIds: new Set(type === 'select' ? OPTIONS : ['multi_select', 'iteration'].includes(type) ? OPTIONS.slice(0, 2) : []),
}));
const typeOf = (id: string) => properties.find((p) => p.id === id)!.type;

// ---- arbitraries ----------------------------------------------------------------------------

const word = fc.string({ unit: fc.constantFrom('a', 'B', 'b', 'A', 'é', 'É', ' ', '%', '_', '😀'), maxLength: 6 });
const day = fc.constantFrom('2023-12-31', '2024-01-01', '2024-01-02', '2024-02-29', '2025-06-30');
const url = fc.constantFrom('https://a.example/Bug', 'http://b.example/x_y', 'https://c.example/%41', 'https://É.example/ab');

const valueOf = (type: string): fc.Arbitrary<unknown> => {
  const empty = fc.constantFrom(null, '', ...(type === 'multi_select' || type === 'link' ? [[]] : []));
  const held: Record<string, fc.Arbitrary<unknown>> = {
    select: fc.constantFrom(...OPTIONS),
    iteration: fc.constantFrom(...OPTIONS.slice(0, 2)),
    multi_select: fc.subarray(OPTIONS, { minLength: 1 }),
    person: fc.constantFrom(...USERS, LEFT),
    text: word,
    number: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -0.5, 1.25, 1e-7)),
    date: day,
    checkbox: fc.boolean(),
    link: fc.uniqueArray(url, { minLength: 1, maxLength: 3 }),
  };
  return fc.oneof({ arbitrary: held[type], weight: 4 }, { arbitrary: empty, weight: 1 });
};

const taskArb = fc
  .tuple(...properties.map((p) => fc.option(valueOf(p.type), { nil: undefined, freq: 3 })))
  .map((vals) => {
    const values: Record<string, unknown> = {};
    vals.forEach((v, i) => {
      if (v !== undefined) values[properties[i].id] = v;
    });
    return { values };
  });

const allOps = [...new Set(Object.values(OPERATORS).flat())];
const setValue = fc.oneof(
  fc.constantFrom(...OPTIONS, GONE_OPTION, ...USERS, LEFT, '__none__', '__me__', 'true', 'false'),
  fc.constantFrom(OPTIONS[0].toUpperCase(), USERS[0].toUpperCase(), ` ${USERS[1]} `, '', ' ', 'x', '__NONE__'),
  fc.constantFrom<unknown>(null, 1, true, {}, ['x']),
);
const textValue = fc.oneof(
  word,
  fc.constantFrom('-1', '0', ' 1.25 ', '2', '1e0', '0.5', 'abc', 'Infinity', ''),
  day,
  fc.constantFrom('2024-13-01', '2023-02-29', ' 2024-01-01 '),
  fc.string({ minLength: 190, maxLength: 230 }),
  fc.constantFrom<unknown>(null, 5, ['x']),
);
/** Anything-goes rules: unknown properties and operators, answers of the wrong kind, extra keys. */
const looseRuleArb: fc.Arbitrary<unknown> = fc.record(
  {
    propertyId: fc.oneof(
      { arbitrary: fc.constantFrom(...properties.map((p) => p.id)), weight: 8 },
      { arbitrary: fc.constantFrom(GONE_PROPERTY, pid(0).toUpperCase(), 'x'), weight: 1 },
    ),
    op: fc.oneof({ arbitrary: fc.constantFrom(...allOps), weight: 8 }, { arbitrary: fc.constantFrom('IS', 'between', ''), weight: 1 }),
    values: fc.array(setValue, { maxLength: 4 }),
    text: textValue,
    extra: fc.anything(),
  },
  { requiredKeys: ['propertyId', 'op'] },
);
/** Mostly sensible rules: an operator of the property's type with an answer of roughly the right kind. */
const typeValues: Record<string, string[]> = {
  select: [...OPTIONS, GONE_OPTION, '__none__', '__me__'],
  iteration: [...OPTIONS, '__none__'],
  multi_select: [...OPTIONS, GONE_OPTION, '__none__'],
  person: [...USERS, LEFT, '__none__', '__me__', USERS[0].toUpperCase()],
  checkbox: ['true', 'false', '__none__', 'yes'],
};
const typeText: Record<string, fc.Arbitrary<unknown>> = {
  text: fc.oneof(word, fc.constantFrom('', ' ')),
  link: fc.oneof(word, fc.constantFrom('example', '.example/', 'http', 'X_Y', '%41')),
  number: fc.constantFrom('-1', '0', ' 1.25 ', '2', '1e0', '0.5', '-0.5', '1e-7', '3', 'abc', ''),
  date: fc.oneof(day, fc.constantFrom('2024-13-01', ' 2024-01-01 ', '2024-01-15')),
};
const saneRuleArb: fc.Arbitrary<unknown> = fc
  .integer({ min: 0, max: properties.length - 1 })
  .chain((i) => {
    const type = properties[i].type;
    const op = fc.constantFrom(...OPERATORS[type]);
    const values = typeValues[type]
      ? fc.uniqueArray(fc.constantFrom(...typeValues[type]), { minLength: 1, maxLength: 3 })
      : fc.constant(undefined);
    const text = typeText[type] ?? fc.constant(undefined);
    return fc.record({ propertyId: fc.constant(properties[i].id), op, values, text }).map(({ propertyId, op, values, text }) => {
      if (op === 'is' || op === 'is_not') return { propertyId, op, values };
      if (op === 'empty' || op === 'not_empty') return { propertyId, op };
      return { propertyId, op, text };
    });
  });
const ruleArb = fc.oneof({ arbitrary: saneRuleArb, weight: 3 }, { arbitrary: looseRuleArb, weight: 1 });
/** Rule sets as clients might send them: mostly plausible, sometimes anything at all. */
const rawFiltersArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.record({ rules: fc.array(ruleArb, { minLength: 1, maxLength: 4 }) }), weight: 8 },
  { arbitrary: fc.record({ rules: fc.array(fc.oneof(ruleArb, fc.anything()), { maxLength: 4 }) }), weight: 1 },
  { arbitrary: fc.anything(), weight: 1 },
);
const meArb = fc.constantFrom<string | null>(...USERS, LEFT, null);

// ---- the reference: the contract read plainly, rule by rule -----------------------------------

const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

function referencePasses(rule: FilterRule, value: unknown, me: string | null): boolean {
  const type = typeOf(rule.propertyId);
  const empty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  switch (rule.op) {
    case 'empty':
      return empty;
    case 'not_empty':
      return !empty;
    case 'is':
    case 'is_not': {
      const set = rule.values!;
      if (type === 'checkbox') {
        const checked = value === true;
        return set.some((v) => (v === 'true' && checked) || (v === 'false' && !checked) || (v === '__none__' && empty));
      }
      const held: unknown[] = empty ? [] : Array.isArray(value) ? value : [value];
      const named = (v: string) => (v === '__me__' ? me : v);
      const inSet = held.some((h) => set.some((v) => v !== '__none__' && named(v) === h));
      if (rule.op === 'is') return inSet || (empty && set.includes('__none__'));
      // is_not: none of the held options is in the set, and the empties stay unless __none__ is named.
      return empty ? !set.includes('__none__') : !inSet;
    }
    case 'contains':
    case 'not_contains': {
      const needle = lowerAscii(rule.text!);
      const texts: unknown[] = empty ? [] : Array.isArray(value) ? value : [value];
      const found = texts.some((t) => typeof t === 'string' && lowerAscii(t).includes(needle));
      return rule.op === 'contains' ? found : !found;
    }
    case 'eq':
      return !empty && value === Number(rule.text);
    case 'gt':
      return !empty && (value as number) > Number(rule.text);
    case 'lt':
      return !empty && (value as number) < Number(rule.text);
    case 'on':
      return !empty && value === rule.text;
    case 'before':
      return !empty && (value as string) < rule.text!;
    case 'after':
      return !empty && (value as string) > rule.text!;
    default:
      throw new Error(`reference does not know ${rule.op}`);
  }
}

const referenceEvaluate = (rules: FilterRule[], values: Record<string, unknown>, me: string | null) =>
  rules.every((rule) => referencePasses(rule, values[rule.propertyId], me));

// ---- properties ------------------------------------------------------------------------------

const ctx = { properties };
const RUNS = { numRuns: 2000 };

describe('cleanFilters (property-based)', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(rawFiltersArb, (raw) => {
        const once = cleanFilters(raw, ctx);
        expect(cleanFilters(once, ctx)).toEqual(once);
        // And survives a trip through JSON, the way it is stored.
        expect(cleanFilters(JSON.parse(JSON.stringify(once)), ctx)).toEqual(once);
      }),
      RUNS,
    );
  });

  it('keeps every rule the request read keeps: cleaning what readFilters answered is cleaning what was sent', () => {
    fc.assert(
      fc.property(rawFiltersArb, (raw) => {
        expect(cleanFilters(readFilters(raw), ctx)).toEqual(cleanFilters(raw, ctx));
      }),
      RUNS,
    );
  });

  it('reads a sort the same way: cleaning what readSort answered is cleaning what was sent', () => {
    const column = fc.oneof(fc.constantFrom(...properties.map((p) => p.id), pid(1).toUpperCase(), GONE_PROPERTY, '_key', '_title', '_nope'), fc.anything());
    const sortArb = fc.oneof(fc.record({ columnId: column, direction: fc.oneof(fc.constantFrom('asc', 'desc', 'ASC'), fc.anything()) }), fc.anything());
    fc.assert(
      fc.property(sortArb, (raw) => {
        expect(cleanSort(readSort(raw), properties)).toEqual(cleanSort(raw, properties));
      }),
      RUNS,
    );
  });

  it('leaves only well-formed rules: one per live property, values or text never both', () => {
    fc.assert(
      fc.property(rawFiltersArb, (raw) => {
        const { rules } = cleanFilters(raw, ctx);
        const seen = new Set<string>();
        for (const rule of rules) {
          const type = typeOf(rule.propertyId);
          expect(seen.has(rule.propertyId)).toBe(false);
          seen.add(rule.propertyId);
          expect(OPERATORS[type]).toContain(rule.op);
          const keys = Object.keys(rule).sort();
          if (rule.op === 'is' || rule.op === 'is_not') {
            expect(keys).toEqual(['op', 'propertyId', 'values']);
            expect(rule.values!.length).toBeGreaterThan(0);
            expect(new Set(rule.values).size).toBe(rule.values!.length);
          } else if (rule.op === 'empty' || rule.op === 'not_empty') {
            expect(keys).toEqual(['op', 'propertyId']);
          } else {
            expect(keys).toEqual(['op', 'propertyId', 'text']);
            expect(rule.text!.trim()).toBe(rule.text);
            expect(rule.text).not.toBe('');
            expect([...rule.text!].length).toBeLessThanOrEqual(200);
          }
        }
      }),
      RUNS,
    );
  });
});

describe('evaluate (property-based)', () => {
  it('agrees with the reference reading of the contract', () => {
    fc.assert(
      fc.property(rawFiltersArb, taskArb, meArb, (raw, task, me) => {
        const { rules } = cleanFilters(raw, ctx);
        expect(evaluate(raw, task, { me, properties })).toBe(referenceEvaluate(rules, task.values, me));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads a rule set the same before and after cleaning', () => {
    fc.assert(
      fc.property(rawFiltersArb, taskArb, meArb, (raw, task, me) => {
        expect(evaluate(raw, task, { me, properties })).toBe(evaluate(cleanFilters(raw, ctx), task, { me, properties }));
      }),
      RUNS,
    );
  });

  it('is_not is the complement of is', () => {
    const setRule = fc.integer({ min: 0, max: 3 }).chain((i) =>
      fc.record({ propertyId: fc.constant(pid(i)), values: fc.uniqueArray(fc.constantFrom(...typeValues[TYPES[i]]), { minLength: 1, maxLength: 3 }) }),
    );
    fc.assert(
      fc.property(setRule, taskArb, meArb, ({ propertyId, values }, task, me) => {
        const is = { rules: [{ propertyId, op: 'is', values }] };
        const isNot = { rules: [{ propertyId, op: 'is_not', values }] };
        if (cleanFilters(is, ctx).rules.length === 0) return;
        expect(evaluate(isNot, task, { me, properties })).toBe(!evaluate(is, task, { me, properties }));
      }),
      RUNS,
    );
  });
});
