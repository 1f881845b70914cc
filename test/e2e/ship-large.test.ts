import { Client as PgClient } from 'pg';
import { expectStatus } from '../support/fixtures';
import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * A ship of thousands of tasks is one transaction with a fixed number of statements. Every
 * statement the service sends goes through pg's Client#query (in this process), so the test
 * counts them per connection and takes the ship's transaction: the connection that wrote the
 * shipped day, from its BEGIN to its COMMIT. A round trip per task would show as thousands.
 */
/** The driver's query, as the recorder wraps it. */
type Query = (this: unknown, config: unknown, ...rest: unknown[]) => unknown;

describe('a ship of 2,000 tasks', () => {
  let t: TestApp;
  let c: Client;
  const sent: Array<{ client: unknown; text: string }> = [];
  let recording = false;
  const realQuery = PgClient.prototype.query;

  beforeAll(async () => {
    (PgClient.prototype as { query: Query }).query = function (this: unknown, config: unknown, ...rest: unknown[]) {
      if (recording) sent.push({ client: this, text: typeof config === 'string' ? config : String((config as { text?: unknown } | undefined)?.text ?? '') });
      return (realQuery as Query).call(this, config, ...rest);
    };
    t = await startTestApp({ env: { SERVICE_WEBHOOK_ALLOW: '127.0.0.1' } });
    c = (await registerPerson(t, 'Big')).client;
  });
  afterAll(async () => {
    PgClient.prototype.query = realQuery;
    await t.close();
  });

  /** A project with releases on, one webhook, options r1 and r2, and `n` tasks on r1 (every other one done) plus `strays` done tasks in no release. */
  async function project(key: string, n: number, strays: number) {
    const p = await createProject(c, key, key);
    await expectStatus(c.patch(`/projects/${p.id}`, { releases: true }), 200);
    await expectStatus(c.post(`/projects/${p.id}/webhooks`, { url: 'http://127.0.0.1:9/hook' }), 201);
    const board = await expectStatus(c.get(`/projects/${p.id}/board`), 200);
    const release = board.properties.find((x) => x.name === 'Release')!;
    const status = board.properties.find((x) => x.name === 'Status')!;
    const done = status.options.find((o) => o.name === 'Done')!.id;
    const todo = status.options.find((o) => o.name === 'To do')!.id;
    const r1 = (await expectStatus(c.post(`/properties/${release.id}/options`, { name: 'r1', targetOn: '2026-07-01' }), 201)).option;
    const r2 = (await expectStatus(c.post(`/properties/${release.id}/options`, { name: 'r2' }), 201)).option;
    // Set-based set-up: the tasks go in with one statement.
    await t.sql.query(
      `INSERT INTO tasks (id, project_id, number, title, position, "values")
       SELECT gen_random_uuid(), $1, i, 'Task ' || i, 'a' || lpad(i::text, 6, '0'),
              CASE WHEN i <= $5 THEN jsonb_build_object($2::text, $3::text, $6::text, CASE WHEN i % 2 = 0 THEN $7 ELSE $8 END)
                   ELSE jsonb_build_object($6::text, $7::text) END
         FROM generate_series(1, $4::int) AS i`,
      [p.id, release.id, r1.id, n + strays, n, status.id, done, todo],
    );
    await t.sql.query(`UPDATE projects SET task_counter = $2 WHERE id = $1`, [p.id, n + strays]);
    return { id: p.id, r1, r2, release };
  }

  /** Ships r1 and answers the answer and the statements of its transaction. */
  async function shipCounted(optionId: string) {
    sent.length = 0;
    recording = true;
    const started = Date.now();
    let answer: unknown;
    try {
      answer = await expectStatus(c.post(`/options/${optionId}/ship`, { rest: 'next', strays: true }), 200);
    } finally {
      recording = false;
    }
    const ms = Date.now() - started;
    const marker = sent.find((s) => /UPDATE options SET shipped_at/.test(s.text));
    expect(marker).toBeDefined();
    const mine = sent.filter((s) => s.client === marker!.client).map((s) => s.text.trim());
    // `BEGIN`, or behind a transaction-mode pooler `BEGIN; SET LOCAL statement_timeout = …`.
    const begin = mine.findLastIndex((s) => /^BEGIN\b/.test(s));
    // `… COMMIT`, or with read replicas `…; COMMIT; SELECT <the primary's position>` (one message).
    const commit = mine.findIndex((s, i) => i > begin && /\bCOMMIT(;|$)/.test(s));
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(commit).toBeGreaterThan(begin);
    return { answer, statements: mine.slice(begin, commit + 1), ms };
  }

  it('archives, moves and takes thousands of tasks in the same statements as a handful', async () => {
    const small = await project('SMALL', 4, 2);
    const smallShip = await shipCounted(small.r1.id);
    expect(smallShip.answer).toMatchObject({ archived: 4, moved: 2, taken: 2 });

    const big = await project('LARGE', 2000, 500);
    const bigShip = await shipCounted(big.r1.id);

    expect(bigShip.answer).toMatchObject({ archived: 1500, moved: 1000, taken: 500, rest: 'next' });

    // The same statements, one for one, however many tasks; and few of them.
    expect(bigShip.statements.length).toBe(smallShip.statements.length);
    expect(bigShip.statements.length).toBeLessThanOrEqual(14);
    // Generous: a round trip per task would not stay under it on a busy machine either, but the count above is the proof.
    expect(bigShip.ms).toBeLessThan(30_000);

    const counts = (await t.sql.query(
      `SELECT count(*) FILTER (WHERE archived_at IS NOT NULL)::int AS archived,
              count(*) FILTER (WHERE "values" ->> $2 = $3)::int AS moved
         FROM tasks WHERE project_id = $1`,
      [big.id, big.release.id, big.r2.id],
    )).rows[0];
    expect(counts).toEqual({ archived: 1500, moved: 1000 });
    const lines = (await t.sql.query(`SELECT count(*)::int AS n, count(DISTINCT data ->> 'shipId')::int AS ships FROM activity WHERE project_id = $1 AND data ? 'shipId'`, [big.id])).rows[0];
    // 1000 archived on the option, 1000 moved, 500 strays with a value line and an archive line each.
    expect(lines).toEqual({ n: 3000, ships: 1 });
    const deliveries = (await t.sql.query(`SELECT kind, task_id FROM webhook_deliveries WHERE project_id = $1`, [big.id])).rows;
    expect(deliveries).toEqual([{ kind: 'archive', task_id: null }]);
    const shipped = (await t.sql.query(`SELECT count(*)::int AS n FROM ship_tasks WHERE project_id = $1`, [big.id])).rows[0].n;
    expect(shipped).toBe(1500);
  });
});
