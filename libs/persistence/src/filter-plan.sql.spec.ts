import { planFilters } from '@board/filters';
import { PropertyDef } from '@board/properties';
import { filterPlanSql } from './filter-plan.sql';
import { compile as compileSql } from './sql';

const SEL = 'a1111111-1111-4111-8111-111111111111';
const TXT = 'a5555555-5555-4555-8555-555555555555';
const NUM = 'a6666666-6666-4666-8666-666666666666';
const PER = 'a4444444-4444-4444-8444-444444444444';
const O1 = 'b1111111-1111-4111-8111-111111111111';
const ALICE = 'c1111111-1111-4111-8111-111111111111';
const properties: PropertyDef[] = [
  { id: SEL, name: 'S', type: 'select', position: 'a0', config: {}, optionIds: new Set([O1]) },
  { id: TXT, name: 'T', type: 'text', position: 'a1', config: {}, optionIds: new Set() },
  { id: NUM, name: 'N', type: 'number', position: 'a2', config: {}, optionIds: new Set() },
  { id: PER, name: 'P', type: 'person', position: 'a3', config: {}, optionIds: new Set() },
];

function compile(filters: unknown, me: string | null = ALICE) {
  const { text, values } = compileSql(filterPlanSql(planFilters(filters, { me, properties })));
  return { sql: text, params: values };
}

/** The values in the order first bound, each once. */
const distinct = (values: unknown[]) => values.filter((v, i) => values.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) === i);

describe('filterPlanSql', () => {
  it('answers TRUE for no rules, and for rules that clean away', () => {
    expect(compile({ rules: [] })).toEqual({ sql: 'TRUE', params: [] });
    expect(compile(null)).toEqual({ sql: 'TRUE', params: [] });
    expect(compile({ rules: [{ propertyId: SEL, op: 'is', values: ['gone'] }] })).toEqual({ sql: 'TRUE', params: [] });
  });

  it('binds every value, property ids included, and concatenates none', () => {
    const text = `x'); DROP TABLE t; --`;
    const { sql, params } = compile({
      rules: [
        { propertyId: SEL, op: 'is_not', values: [O1, '__none__'] },
        { propertyId: TXT, op: 'contains', text },
        { propertyId: NUM, op: 'gt', text: '4.5' },
        { propertyId: PER, op: 'is', values: ['__me__'] },
      ],
    });
    for (const secret of [SEL, TXT, NUM, PER, O1, ALICE, 'drop table', '4.5']) expect(sql.toLowerCase()).not.toContain(secret);
    // A property id used twice in one rule is bound once per use (compile numbers every use).
    expect(distinct(params)).toEqual([SEL, [O1], TXT, text.toLowerCase(), NUM, 4.5, PER, [ALICE]]);
    expect(new Set(sql.match(/\$\d+/g))).toEqual(new Set(params.map((_, i) => `$${i + 1}`)));
  });

  it('resolves __me__ for the reader, and to nothing without one, binding no unused parameter', () => {
    expect(compile({ rules: [{ propertyId: PER, op: 'is', values: ['__me__'] }] }, null)).toEqual({ sql: '(FALSE)', params: [] });
    expect(compile({ rules: [{ propertyId: PER, op: 'is_not', values: ['__me__'] }] }, null)).toEqual({ sql: '(NOT FALSE)', params: [] });
    expect(distinct(compile({ rules: [{ propertyId: PER, op: 'is', values: ['__me__'] }] }, ALICE).params)).toEqual([PER, [ALICE]]);
  });
});
