import { Client as PgClient } from 'pg';
import { aProject, optionId, propertyNamed } from '../support/builders';
import { boardOf } from '../support/builders-b';
import { exportOf } from '../support/builders-c';
import { expectStatus, seedTasks } from '../support/fixtures';
import { Client, registerPerson, startTestApp, TestApp } from '../support/test-app';

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

  /** Sets one value on many tasks through the bulk route, 200 at a time (its most). */
  async function setValue(projectId: string, taskIds: string[], propertyId: string, value: string) {
    for (let from = 0; from < taskIds.length; from += 200) {
      await expectStatus(c.post(`/projects/${projectId}/tasks/values`, { taskIds: taskIds.slice(from, from + 200), propertyId, value }), 200);
    }
  }

  /** A project with releases on, one webhook, options r1 and r2, and `n` tasks on r1 (every other one done) plus `strays` done tasks in no release. */
  async function project(key: string, n: number, strays: number) {
    const { project: p, status } = await aProject(c, { name: key, key });
    await expectStatus(c.patch(`/projects/${p.id}`, { releases: true }), 200);
    const release = await propertyNamed(c, p.id, 'Release');
    const r1 = (await expectStatus(c.post(`/properties/${release.id}/options`, { name: 'r1', targetOn: '2026-07-01' }), 201)).option;
    const r2 = (await expectStatus(c.post(`/properties/${release.id}/options`, { name: 'r2' }), 201)).option;
    // Set-based set-up: thousands of tasks made one by one through the API would take minutes, so
    // they go in with one statement; their values then go on through the bulk route.
    await seedTasks(t, p.id, n + strays);
    const ids = (await boardOf(c, p.id)).tasks.sort((a, b) => a.number - b.number).map((x) => x.id);
    const onRelease = ids.slice(0, n);
    await setValue(p.id, onRelease, release.id, r1.id);
    await setValue(p.id, [...onRelease.filter((_, i) => i % 2 === 1), ...ids.slice(n)], status.id, optionId(status, 'Done'));
    await setValue(p.id, onRelease.filter((_, i) => i % 2 === 0), status.id, optionId(status, 'To do'));
    // The webhook last: the set-up rings nothing, the ship alone does.
    const hook = (await expectStatus(c.post(`/projects/${p.id}/webhooks`, { url: 'http://127.0.0.1:9/hook' }), 201)).webhook;
    return { id: p.id, r1, r2, release, hook };
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

    // The export shows every task, archived ones with their values, every feed line and the tasks each option shipped.
    const kept = await exportOf(c, big.id);
    const counts = {
      archived: kept.tasks.filter((x) => x.archivedAt !== null).length,
      moved: kept.tasks.filter((x) => x.values[big.release.id] === big.r2.id).length,
    };
    expect(counts).toEqual({ archived: 1500, moved: 1000 });
    const shipLines = kept.activity.filter((l) => 'shipId' in l.data);
    // 1000 archived on the option, 1000 moved, 500 strays with a value line and an archive line each.
    expect({ n: shipLines.length, ships: new Set(shipLines.map((l) => l.data.shipId)).size }).toEqual({ n: 3000, ships: 1 });
    const { deliveries } = await expectStatus(c.get(`/projects/${big.id}/webhooks/${big.hook.id}/deliveries`), 200);
    expect(deliveries.map((d) => ({ kind: d.kind, taskKey: d.taskKey }))).toEqual([{ kind: 'archive', taskKey: null }]);
    const shipped = kept.tasks.reduce((n, x) => n + x.shipped.length, 0);
    expect(shipped).toBe(1500);
  });
});
