/**
 * filterPlanSql() (libs/persistence) against evaluate() (libs/filters) on a real PostgreSQL: for random tasks over random properties of all
 * nine types (odd value shapes included) and random rule sets, the rows the SQL selects are exactly
 * the tasks evaluate() passes.
 */
import fc from 'fast-check';
import { Client } from 'pg';
import { cleanFilters, evaluate, OPERATORS, planFilters } from '@board/filters';
import { compile, filterPlanSql } from '@board/persistence';
import { PropertyDef } from '@board/properties';
import { createDatabase } from '../support/database';
import { storedValueArb } from '../support/stored-values';

const TYPES = ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'];
const TASKS = 300;
const RULE_SETS = 200;
const SEED = Number(process.env.FILTERS_SQL_SEED ?? Date.now() % 2 ** 31);

interface World {
  properties: PropertyDef[];
  /** Live options per property id, and some that are gone. */
  options: Map<string, string[]>;
  goneOptions: string[];
  users: string[];
}

// ---- random world and tasks --------------------------------------------------------------------

const uuid = fc.uuid();
const worldArb: fc.Arbitrary<World> = fc
  .record({
    counts: fc.tuple(...TYPES.map(() => fc.integer({ min: 1, max: 2 }))),
    ids: fc.uniqueArray(uuid, { minLength: 60, maxLength: 60 }),
  })
  .map(({ counts, ids }) => {
    const take = () => ids.pop()!;
    const properties: PropertyDef[] = [];
    const options = new Map<string, string[]>();
    TYPES.forEach((type, t) => {
      for (let k = 0; k < counts[t]; k++) {
        const id = take();
        const optionIds = ['select', 'multi_select', 'iteration'].includes(type) ? [take(), take(), take()] : [];
        options.set(id, optionIds);
        properties.push({ id, name: `${type}${k}`, type, position: `a${properties.length}`, config: {}, optionIds: new Set(optionIds) });
      }
    });
    return { properties, options, goneOptions: [take(), take()], users: [take(), take(), take()] };
  });

const alphabet = ['a', 'b', 'A', 'B', 'x', 'É', 'é', 'İ', 'i', 'ß', 'S', '%', '_', '\\', ' ', '😀', "'", '.'];
const word = (max: number) => fc.string({ unit: fc.constantFrom(...alphabet), maxLength: max });
const days = ['2023-12-31', '2024-01-01', '2024-01-02', '2024-02-29', '2025-06-30'];
const numbers = [0, -0, 1, -1, 2, 3, 0.1, 0.2, 0.30000000000000004, 0.3, 1.5, -2.5, 1e-7, 1e21, 123456789.123];

/** A value as the validator stores it, an empty, or (now and then) something of the wrong shape. */
function valueArb(world: World, p: PropertyDef): fc.Arbitrary<unknown> {
  const live = world.options.get(p.id) ?? [];
  const heldArb = (): fc.Arbitrary<unknown> =>
    storedValueArb(p.type, {
      optionIds: live,
      userIds: world.users,
      text: word(8),
      numbers,
      range: 5,
      days,
      links: ['https://a.example/Bug', 'http://b.example/x_y%', 'https://É.example/İ'],
    });
  const empty = fc.constantFrom<unknown>(null, '', []);
  const odd = fc.oneof(
    fc.constantFrom<unknown>(5, '5', true, false, 'true', {}, { [live[0] ?? 'k']: 1 }, [null], [5], ['2024-01-01'], 'soon', '2024-1-1', 'x'),
    fc.constantFrom(...live, ...world.users, ...days).map((s) => [s, 7]),
    word(4),
  );
  return fc.oneof({ arbitrary: heldArb(), weight: 12 }, { arbitrary: empty, weight: 2 }, { arbitrary: odd, weight: 1 });
}

function tasksArb(world: World): fc.Arbitrary<Record<string, unknown>[]> {
  const one = fc.tuple(...world.properties.map((p) => fc.option(valueArb(world, p), { nil: undefined, freq: 3 }))).map((vals) => {
    const values: Record<string, unknown> = {};
    vals.forEach((v, i) => {
      if (v !== undefined) values[world.properties[i].id] = v;
    });
    return values;
  });
  return fc.array(one, { minLength: TASKS, maxLength: TASKS });
}

// ---- random rule sets ------------------------------------------------------------------------

function ruleArb(world: World): fc.Arbitrary<unknown> {
  const props = world.properties;
  const setValues = (p: PropertyDef): string[] => {
    switch (p.type) {
      case 'checkbox':
        return ['true', 'false', '__none__'];
      case 'person':
        return [...world.users, '__none__', '__me__', world.users[0].toUpperCase(), 'c0ffee00-0000-4000-8000-000000000000'];
      default:
        return [...(world.options.get(p.id) ?? []), ...world.goneOptions, '__none__', '__me__'];
    }
  };
  const textFor = (p: PropertyDef): fc.Arbitrary<string> =>
    p.type === 'number'
      ? fc.oneof(fc.constantFrom(...numbers.map(String), '0.10', ' 2 ', '1e0', '-0', 'abc'), fc.double({ noNaN: true, min: -10, max: 10 }).map(String))
      : p.type === 'date'
        ? fc.constantFrom(...days, '2024-01-15', '2024-13-01')
        : fc.oneof(word(3), fc.constantFrom('example/', 'BUG', 'x_y%', '\\', 'İ', 'i̇'));
  const sane = fc.integer({ min: 0, max: props.length - 1 }).chain((i) => {
    const p = props[i];
    return fc.constantFrom(...OPERATORS[p.type]).chain((op): fc.Arbitrary<unknown> => {
      if (op === 'is' || op === 'is_not') {
        return fc.uniqueArray(fc.constantFrom(...setValues(p)), { minLength: 1, maxLength: 3 }).map((values) => ({ propertyId: p.id, op, values }));
      }
      if (op === 'empty' || op === 'not_empty') return fc.constant({ propertyId: p.id, op });
      return textFor(p).map((text) => ({ propertyId: p.id, op, text }));
    });
  });
  const loose = fc.record({
    propertyId: fc.constantFrom(...props.map((p) => p.id.toUpperCase())),
    op: fc.constantFrom(...new Set(Object.values(OPERATORS).flat())),
    values: fc.array(fc.constantFrom<unknown>('__none__', 'true', ...world.users, 1, null), { maxLength: 3 }),
    text: word(3),
  });
  return fc.oneof({ arbitrary: sane, weight: 5 }, { arbitrary: loose, weight: 1 });
}

// ---- the test --------------------------------------------------------------------------------

describe('filterPlanSql agrees with evaluate on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createDatabase>>;
  let client: Client;
  let world: World;
  let tasks: Record<string, unknown>[];

  beforeAll(async () => {
    db = await createDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    [world] = fc.sample(worldArb, { numRuns: 1, seed: SEED });
    [tasks] = fc.sample(tasksArb(world), { numRuns: 1, seed: SEED + 1 });
    // What evaluate() reads is what the database holds: the values after a trip through JSON.
    tasks = tasks.map((values) => JSON.parse(JSON.stringify(values)));
    await client.query('CREATE TEMP TABLE t (id int PRIMARY KEY, "values" jsonb NOT NULL)');
    await client.query('INSERT INTO t (id, "values") SELECT i, v FROM unnest($1::int[], $2::jsonb[]) AS u(i, v)', [
      tasks.map((_, i) => i),
      tasks.map((values) => JSON.stringify(values)),
    ]);
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  async function selected(filters: unknown, me: string | null): Promise<{ sql: string; params: unknown[]; ids: number[] }> {
    const { text: sql, values: params } = compile(filterPlanSql(planFilters(filters, { me, properties: world.properties })));
    const { rows } = await client.query<{ id: number }>(`SELECT id FROM t WHERE ${sql} ORDER BY id`, params);
    return { sql, params, ids: rows.map((r) => r.id) };
  }

  const expected = (filters: unknown, me: string | null): number[] =>
    tasks.flatMap((values, id) => (evaluate(filters, { values }, { me, properties: world.properties }) ? [id] : []));

  it('on the fixed cases: no rules, and one rule of every operator of every type', async () => {
    expect((await selected({ rules: [] }, null)).ids).toHaveLength(TASKS);
    for (const p of world.properties) {
      for (const op of OPERATORS[p.type]) {
        const answer =
          op === 'is' || op === 'is_not'
            ? { values: p.type === 'checkbox' ? ['false'] : p.type === 'person' ? ['__me__', '__none__'] : [world.options.get(p.id)![0]] }
            : op.endsWith('empty') ? {} : { text: p.type === 'number' ? '1' : p.type === 'date' ? '2024-01-01' : 'b' };
        const filters = { rules: [{ propertyId: p.id, op, ...answer }] };
        expect(cleanFilters(filters, world).rules).toHaveLength(1);
        const me = world.users[0];
        expect({ seed: SEED, filters, ids: (await selected(filters, me)).ids }).toEqual({ seed: SEED, filters, ids: expected(filters, me) });
      }
    }
  });

  it(`on ${RULE_SETS} random rule sets (dataset seed ${SEED})`, async () => {
    let mixed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleArb(world), { minLength: 1, maxLength: 4 }),
        fc.constantFrom<string | null>(...world.users, null),
        async (rules, me) => {
          const filters = { rules };
          const want = expected(filters, me);
          const got = await selected(filters, me);
          if (want.length > 0 && want.length < TASKS) mixed++;
          expect({ seed: SEED, ids: got.ids }).toEqual({ seed: SEED, ids: want });
        },
      ),
      { numRuns: RULE_SETS },
    );
    // Not vacuous: most rule sets split the tasks.
    expect(mixed).toBeGreaterThan(RULE_SETS / 2);
  });
});
