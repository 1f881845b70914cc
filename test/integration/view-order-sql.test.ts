/**
 * The view order in TypeScript (libs/views/src/view-order.ts, which the board page sorts with)
 * against the ORDER BY of a view read (libs/persistence/src/views/view-sort.sql.ts) on a real
 * PostgreSQL: for random tasks (titles and names with case pairs, accents, `İ`, characters above
 * U+FFFF, ties of every key), random values of every property type as the service stores them
 * (and empties) and random sorts, both put the tasks in the same order.
 */
import fc from 'fast-check';
import { Client } from 'pg';
import type { PropertyDef } from '@board/properties';
import { orderTasks, type OrderProperty, type OrderSort, type OrderTask } from '@board/views';
import { compile } from '../../libs/persistence/src/sql';
import { orderBySql } from '../../libs/persistence/src/views/view-sort.sql';
import { createDatabase } from '../support/database';
import { storedValueArb } from '../support/stored-values';

const TYPES = ['select', 'iteration', 'multi_select', 'person', 'number', 'checkbox', 'link', 'date', 'text'];
const BUILT_IN = ['_key', '_title', '_checklist', '_comments', '_created', '_updated'];
const TASKS = 80;
const SORTS = 150;
const SEED = Number(process.env.VIEW_ORDER_SEED ?? Date.now() % 2 ** 31);

interface World {
  project: string;
  other: string;
  properties: (OrderProperty & { def: PropertyDef })[];
  users: { id: string; name: string }[];
  /** A user id no users row has (a value naming nobody). */
  nobody: string;
}

interface Row extends OrderTask {
  /** Checklist items (done or not) and comments of another project that name this task: never counted. */
  strayItems: number;
  strayComments: number;
}

// ---- random world and tasks --------------------------------------------------------------------

const alphabet = ['a', 'b', 'A', 'B', 'z', 'É', 'é', 'İ', 'i', 'ß', 'ẞ', 'Σ', 'σ', 'ς', '😀', 'ｚ', '\uE000', ' ', '_', '0'];
const word = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
/** Ranks are base-62: upper case sorts before lower case byte by byte. */
const rankArb = fc.string({ unit: fc.constantFrom('0', '9', 'A', 'Z', 'a', 'z'), minLength: 1, maxLength: 3 });
const days = ['2023-12-31', '2024-01-01', '2024-01-02', '2024-02-29'];
const numbers = [0, -0, 1, -1, 2, 0.1, 0.2, 0.30000000000000004, 0.3, 1.5, -2.5, 1e-7, 1e21];
const stamps = ['2024-01-01T10:00:00.000Z', '2024-01-01T10:00:00.001Z', '2024-01-01T10:00:00.100Z', '2023-12-31T23:59:59.999Z', '2024-03-01T00:00:00.000Z'];

const worldArb: fc.Arbitrary<World> = fc
  .record({
    ids: fc.uniqueArray(fc.uuid(), { minLength: 60, maxLength: 60 }),
    names: fc.array(fc.oneof(word(1, 5), fc.constantFrom('Ann', 'ann', 'ANN', 'İda', 'ida')), { minLength: 5, maxLength: 5 }),
    optionRanks: fc.array(rankArb, { minLength: 30, maxLength: 30 }),
  })
  .map(({ ids, names, optionRanks }) => {
    const take = (): string => {
      const id = ids.pop();
      if (id === undefined) throw new Error('the world ran out of ids');
      return id;
    };
    const properties = TYPES.map((type, i) => {
      const id = take();
      // Options may share a rank across properties: a tie of keys falls to the task's rank.
      const options = ['select', 'iteration', 'multi_select'].includes(type)
        ? [0, 1, 2, 3].map((k) => ({ id: take(), position: optionRanks[(i * 4 + k) % optionRanks.length] }))
        : [];
      const def: PropertyDef = { id, name: type, type, position: `a${i}`, config: {}, optionIds: new Set(options.map((o) => o.id)) };
      return { id, type, options, def };
    });
    return { project: take(), other: take(), properties, users: names.map((name) => ({ id: take(), name })), nobody: take() };
  });

/** A value as the service stores it, or an empty. */
function valueArb(world: World, p: OrderProperty): fc.Arbitrary<unknown> {
  const held = storedValueArb(p.type, {
    optionIds: p.options.map((o) => o.id),
    userIds: [...world.users.map((u) => u.id), world.nobody],
    text: word(0, 5),
    numbers,
    range: 3,
    days,
    links: ['https://a.example/Bug', 'HTTPS://A.example/bug', 'https://É.example/İ', 'https://😀.example', 'https://ｚ.example', ''],
  });
  // The service stores no empty value (apps/api/src/tasks/task-values.ts drops it) and no value of
  // another type's shape; null and '' are here all the same, and both sides agree on them.
  const empty = p.type === 'multi_select' || p.type === 'link' ? fc.constantFrom<unknown>(null, '', []) : fc.constantFrom<unknown>(null, '');
  return fc.oneof({ arbitrary: held, weight: 8 }, { arbitrary: empty, weight: 1 });
}

function tasksArb(world: World): fc.Arbitrary<Row[]> {
  const values = fc.tuple(...world.properties.map((p) => fc.option(valueArb(world, p), { nil: undefined, freq: 4 }))).map((vals) => {
    const out: Record<string, unknown> = {};
    vals.forEach((v, i) => {
      if (v !== undefined) out[world.properties[i].id] = v;
    });
    return out;
  });
  const task = fc.record({
    title: word(0, 6),
    total: fc.integer({ min: 0, max: 4 }),
    done: fc.integer({ min: 0, max: 4 }),
    comments: fc.integer({ min: 0, max: 3 }),
    createdAt: fc.constantFrom(...stamps),
    updatedAt: fc.constantFrom(...stamps),
    strayItems: fc.integer({ min: 0, max: 2 }),
    strayComments: fc.integer({ min: 0, max: 2 }),
    values,
  });
  return fc
    .record({
      tasks: fc.array(task, { minLength: TASKS, maxLength: TASKS }),
      ids: fc.uniqueArray(fc.uuid(), { minLength: TASKS, maxLength: TASKS }),
      ranks: fc.uniqueArray(rankArb, { minLength: TASKS, maxLength: TASKS }),
      numbers: fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: TASKS, maxLength: TASKS }),
    })
    .map(({ tasks, ids, ranks, numbers: keys }) =>
      tasks.map((t, i) => ({
        id: ids[i],
        position: ranks[i],
        number: keys[i],
        title: t.title,
        checklistTotal: t.total,
        checklistDone: Math.min(t.done, t.total),
        commentCount: t.comments,
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
        // What the page reads is what the database holds: the values after a trip through JSON.
        values: JSON.parse(JSON.stringify(t.values)) as Record<string, unknown>,
        strayItems: t.strayItems,
        strayComments: t.strayComments,
      })),
    );
}

function sortArb(world: World): fc.Arbitrary<OrderSort | null> {
  const column = fc.constantFrom(...BUILT_IN, ...world.properties.map((p) => p.id), world.nobody, '_nothing');
  return fc.option(fc.record({ columnId: column, direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc') }), { nil: null, freq: 10 });
}

// ---- the test --------------------------------------------------------------------------------

describe('the view order in TypeScript agrees with the ORDER BY of a view read on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createDatabase>>;
  let client: Client;
  let world: World;
  let tasks: Row[];

  beforeAll(async () => {
    db = await createDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    [world] = fc.sample(worldArb, { numRuns: 1, seed: SEED });
    [tasks] = fc.sample(tasksArb(world), { numRuns: 1, seed: SEED + 1 });
    // The columns the ORDER BY reads, nothing more.
    await client.query(`
      CREATE TABLE users (id uuid PRIMARY KEY, name text NOT NULL);
      CREATE TABLE options (id uuid PRIMARY KEY, project_id uuid NOT NULL, position text NOT NULL);
      CREATE TABLE tasks (id uuid PRIMARY KEY, project_id uuid NOT NULL, number int NOT NULL, title text NOT NULL, position text NOT NULL,
                          created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL, "values" jsonb NOT NULL);
      CREATE TABLE checklist_items (project_id uuid NOT NULL, task_id uuid NOT NULL, done boolean NOT NULL);
      CREATE TABLE comments (project_id uuid NOT NULL, task_id uuid NOT NULL);`);
    await client.query('INSERT INTO users SELECT * FROM unnest($1::uuid[], $2::text[])', [world.users.map((u) => u.id), world.users.map((u) => u.name)]);
    const options = world.properties.flatMap((p) => p.options);
    await client.query('INSERT INTO options SELECT id, $1, position FROM unnest($2::uuid[], $3::text[]) AS o(id, position)', [
      world.project,
      options.map((o) => o.id),
      options.map((o) => o.position),
    ]);
    await client.query(
      `INSERT INTO tasks SELECT id, $1, number, title, position, created_at, updated_at, v
         FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::jsonb[])
           AS t(id, number, title, position, created_at, updated_at, v)`,
      [
        world.project,
        tasks.map((t) => t.id),
        tasks.map((t) => t.number),
        tasks.map((t) => t.title),
        tasks.map((t) => t.position),
        tasks.map((t) => t.createdAt),
        tasks.map((t) => t.updatedAt),
        tasks.map((t) => JSON.stringify(t.values)),
      ],
    );
    const items = tasks.flatMap((t) => [
      ...Array.from({ length: t.checklistTotal }, (_, k) => [world.project, t.id, k < t.checklistDone]),
      ...Array.from({ length: t.strayItems }, () => [world.other, t.id, true]),
    ]);
    await client.query('INSERT INTO checklist_items SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::boolean[])', [
      items.map((i) => i[0]),
      items.map((i) => i[1]),
      items.map((i) => i[2]),
    ]);
    const comments = tasks.flatMap((t) => [
      ...Array.from({ length: t.commentCount }, () => [world.project, t.id]),
      ...Array.from({ length: t.strayComments }, () => [world.other, t.id]),
    ]);
    await client.query('INSERT INTO comments SELECT * FROM unnest($1::uuid[], $2::uuid[])', [comments.map((c) => c[0]), comments.map((c) => c[1])]);
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  async function inSql(sort: OrderSort | null): Promise<string[]> {
    const order = compile(orderBySql(sort, world.properties.map((p) => p.def)));
    const { rows } = await client.query<{ id: string }>(
      `SELECT t.id FROM tasks t WHERE t.project_id = $${order.values.length + 1} ORDER BY ${order.text}`,
      [...order.values, world.project],
    );
    return rows.map((r) => r.id);
  }

  const names = (): Map<string, string> => new Map(world.users.map((u) => [u.id, u.name]));
  const inTypeScript = (sort: OrderSort | null): string[] => {
    const byId = names();
    return orderTasks(tasks, sort, { properties: world.properties, nameOf: (id) => byId.get(id) }).map((t) => t.id);
  };

  it('on every column in both directions, and without a sort', async () => {
    let reordered = 0;
    const rank = await inSql(null);
    expect(inTypeScript(null)).toEqual(rank);
    for (const columnId of [...BUILT_IN, ...world.properties.map((p) => p.id)]) {
      for (const direction of ['asc', 'desc'] as const) {
        const sort = { columnId, direction };
        const want = await inSql(sort);
        if (want.join() !== rank.join()) reordered++;
        expect({ seed: SEED, sort, ids: inTypeScript(sort) }).toEqual({ seed: SEED, sort, ids: want });
      }
    }
    // Not vacuous: nearly every column puts the tasks in another order than the rank.
    expect(reordered).toBeGreaterThan(BUILT_IN.length + TYPES.length);
  });

  it(`on ${SORTS} random sorts (dataset seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(sortArb(world), async (sort) => {
        expect({ seed: SEED, sort, ids: inTypeScript(sort) }).toEqual({ seed: SEED, sort, ids: await inSql(sort) });
      }),
      { numRuns: SORTS },
    );
  });
});
