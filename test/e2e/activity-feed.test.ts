/**
 * GET /api/projects/:projectId/activity (decisions.md › Activity feed): oldest first by
 * (createdAt, id), a cursor of { after, afterId } that never skips nor repeats a line, even
 * among lines that share one timestamp; taskId/taskKey; limits and gates.
 *
 * `createdAt` is shown to the millisecond, so the order and the cursor are by the millisecond
 * too: lines written within one millisecond (at different microseconds) order by id, and an
 * entry's own `createdAt` and `id` serve as a cursor exactly like `next`.
 */
import { randomUUID } from 'node:crypto';
import { Agent, aTeam } from '../support/builders';
import { expectStatus } from '../support/fixtures';
import { Client, createProject, Person, startTestApp, TestApp } from '../support/test-app';
import type { CreatedTaskAnswer, ErrorAnswer, FeedAnswer } from '../support/answers';

const TOTAL = 44;

describe('activity feed', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let agent: Agent;
  let projectId: string;
  let otherProjectId: string;
  let tasks: CreatedTaskAnswer[];
  /** Every line of the project as (created_at to the millisecond, id), sorted here, not by the server. */
  let expected: { id: string; at: string; iso: string }[];
  /** The millisecond that (at least) seven lines share (one written by the service, six by SQL). */
  let sharedIso: string;

  const feed = <T = FeedAnswer>(query = '', c: Client = owner.client, pid = projectId) => c.get<T>(`/projects/${pid}/activity${query}`);

  async function walk(limit: number): Promise<{ ids: string[]; pages: FeedAnswer[] }> {
    const ids: string[] = [];
    const pages: FeedAnswer[] = [];
    let query = `?limit=${limit}`;
    for (let guard = 0; guard < 200; guard++) {
      const page = await expectStatus(feed(query), 200);
      pages.push(page);
      ids.push(...page.activity.map((e) => e.id));
      if (!page.next) return { ids, pages };
      query = `?limit=${limit}&after=${encodeURIComponent(page.next.after)}&afterId=${page.next.afterId}`;
    }
    throw new Error('the walk did not end');
  }

  beforeAll(async () => {
    t = await startTestApp();
    const { status, ...team } = await aTeam(t, { name: 'Feed', key: 'FEED' });
    ({ owner, member, outsider, project: { id: projectId }, agent } = team);
    otherProjectId = (await createProject(owner.client, 'Other feed', 'OTHF')).id;

    // 12 created lines.
    tasks = [];
    for (let i = 1; i <= 12; i++) tasks.push((await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title: `Task ${i}` }), 201)).task);
    // 6 archive lines in one transaction.
    expect((await expectStatus(owner.client.post(`/projects/${projectId}/archive`, { taskIds: tasks.slice(6).map((x) => x.id) }), 200)).archived).toBe(6);
    // 4 value lines in one transaction.
    await expectStatus(
      member.client.post(`/projects/${projectId}/tasks/values`, { taskIds: tasks.slice(0, 4).map((x) => x.id), propertyId: status.id, value: status.options[1].id }),
      200,
    );
    // 3 project lines: rules twice, a reset link.
    await expectStatus(owner.client.put(`/projects/${projectId}/rules`, { text: 'Be kind.' }), 200);
    await expectStatus(owner.client.put(`/projects/${projectId}/rules`, { text: 'Be kind. Be brief.' }), 200);
    await expectStatus(owner.client.post(`/projects/${projectId}/members/${member.user.id}/reset`), 200);
    // 3 comment lines, one by the agent.
    await expectStatus(owner.client.post(`/tasks/${tasks[0].id}/comments`, { body: 'One' }), 201);
    await expectStatus(member.client.post(`/tasks/${tasks[1].id}/comments`, { body: 'Two' }), 201);
    await expectStatus(agent.client.post(`/tasks/${tasks[2].id}/comments`, { body: 'Three' }), 201);
    // Lines in another project never show.
    await expectStatus(owner.client.post(`/projects/${otherProjectId}/tasks`, { title: 'Elsewhere' }), 201);
    await expectStatus(owner.client.put(`/projects/${otherProjectId}/rules`, { text: 'Other rules' }), 200);

    // 12 lines by SQL: six share the timestamp of the fifth created line, six share a timestamp of their own.
    // Storage itself (here and for the expected order below): forced clocks, to the microsecond the API never shows.
    const fifth = await t.sql.query(`SELECT created_at FROM activity WHERE project_id = $1 AND task_id = $2 AND kind = 'created'`, [projectId, tasks[4].id]);
    const shared = fifth.rows[0].created_at;
    const insert = (taskId: string | null, kind: string, data: unknown, at: string | Date) =>
      t.sql.query(`INSERT INTO activity (id, project_id, task_id, actor_id, kind, data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        randomUUID(),
        projectId,
        taskId,
        owner.user.id,
        kind,
        JSON.stringify(data),
        at,
      ]);
    // Same microsecond as the service's line: copy it in SQL, not through a JS Date (which keeps milliseconds only).
    for (let i = 0; i < 6; i++) {
      await t.sql.query(
        `INSERT INTO activity (id, project_id, task_id, actor_id, kind, data, created_at)
         SELECT $1, project_id, task_id, actor_id, 'comment', $3, created_at FROM activity WHERE project_id = $2 AND task_id = $4 AND kind = 'created'`,
        [randomUUID(), projectId, JSON.stringify({ commentId: randomUUID() }), tasks[4].id],
      );
    }
    const later = `2099-01-01T00:00:00.123456Z`;
    for (let i = 0; i < 6; i++) await insert(i % 2 ? null : tasks[5].id, i % 2 ? 'rules' : 'comment', i % 2 ? { hash: 'x', text: 'y' } : { commentId: randomUUID() }, later);
    expect(shared).toBeInstanceOf(Date);
    // Four lines within one millisecond, at four different microseconds, ids not in time order.
    for (const us of ['500900', '500100', '500500', '500300']) await insert(null, 'rules', { hash: 'x', text: 'y' }, `2098-01-01T00:00:00.${us}Z`);

    const rows = await t.sql.query(
      `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS at,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso
         FROM activity WHERE project_id = $1`,
      [projectId],
    );
    expected = rows.rows.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(expected).toHaveLength(TOTAL);
    const groups = new Map<string, number>();
    for (const r of expected) groups.set(r.at, (groups.get(r.at) ?? 0) + 1);
    sharedIso = (shared as Date).toISOString();
    expect(expected.filter((r) => r.iso === sharedIso).length).toBeGreaterThanOrEqual(7);
    expect(expected.filter((r) => r.iso === '2099-01-01T00:00:00.123Z')).toHaveLength(6);
    expect(expected.filter((r) => r.iso === '2098-01-01T00:00:00.500Z')).toHaveLength(4);
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers { activity, next }: every line oldest first by (createdAt, id), next null when the page is not full', async () => {
    const page = await expectStatus(feed('?limit=500'), 200);
    expect(Object.keys(page).sort()).toEqual(['activity', 'next']);
    expect(page.activity.map((e) => e.id)).toEqual(expected.map((r) => r.id));
    expect(page.next).toBeNull();
    // Without a limit the default (100) holds them all too.
    const all = await expectStatus(feed(), 200);
    expect(all.activity.map((e) => e.id)).toEqual(expected.map((r) => r.id));
    expect(all.next).toBeNull();
    const times = page.activity.map((e) => Date.parse(e.createdAt));
    expect(times.every((x: number, i: number) => i === 0 || x >= times[i - 1])).toBe(true);
  });

  it('gives each entry { id, kind, createdAt, data, actor, taskId, taskKey }', async () => {
    const page = await expectStatus(feed('?limit=500'), 200);
    for (const entry of page.activity) expect(Object.keys(entry).sort()).toEqual(['actor', 'createdAt', 'data', 'id', 'kind', 'taskId', 'taskKey']);
    const created = page.activity.find((e) => e.kind === 'created' && e.taskId === tasks[0].id);
    expect(created).toEqual({
      id: expect.any(String),
      kind: 'created',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: { selects: {} },
      actor: { id: owner.user.id, name: 'Olive', color: owner.user.color, emoji: owner.user.emoji },
      taskId: tasks[0].id,
      taskKey: 'FEED-1',
    });
    const archived = page.activity.filter((e) => e.kind === 'archive');
    expect(archived.map((e) => e.taskKey).sort()).toEqual(['FEED-10', 'FEED-11', 'FEED-12', 'FEED-7', 'FEED-8', 'FEED-9']);
    expect(archived.every((e) => e.data.action === 'archived')).toBe(true);
    const robot = page.activity.find((e) => e.kind === 'comment' && e.actor?.id === agent.agent.id);
    expect(robot).toMatchObject({ taskId: tasks[2].id, taskKey: 'FEED-3', actor: { id: agent.agent.id, name: agent.agent.name } });
    const values = page.activity.filter((e) => e.kind === 'value');
    expect(values.map((e) => e.taskKey).sort()).toEqual(['FEED-1', 'FEED-2', 'FEED-3', 'FEED-4']);
    expect(values.every((e) => e.actor!.id === member.user.id)).toBe(true);
  });

  it('reads lines about the project (rules, reset) with taskId and taskKey null', async () => {
    const page = await expectStatus(feed('?limit=500'), 200);
    const rules = page.activity.filter((e) => e.kind === 'rules' && e.data.text !== 'y');
    expect(rules.map((e) => e.data.text)).toEqual(['Be kind.', 'Be kind. Be brief.']);
    for (const line of rules) {
      expect(line).toMatchObject({ taskId: null, taskKey: null, actor: { id: owner.user.id } });
      expect(line.data.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const reset = page.activity.filter((e) => e.kind === 'reset');
    expect(reset).toHaveLength(1);
    expect(reset[0]).toMatchObject({ taskId: null, taskKey: null, data: { forUserId: member.user.id, forName: 'Milo' } });
    // Never a line of another project.
    expect(page.activity.some((e) => e.data?.text === 'Other rules')).toBe(false);
    const other = await expectStatus(feed('?limit=500', owner.client, otherProjectId), 200);
    expect(other.activity.map((e) => e.kind)).toEqual(['created', 'rules']);
    expect(other.activity.map((e) => e.taskKey)).toEqual(['OTHF-1', null]);
  });

  it.each([1, 2, 7, 40])('walks pages of %i: every line exactly once, in order; next only on a full page', async (limit) => {
    const { ids, pages } = await walk(limit);
    expect(ids).toEqual(expected.map((r) => r.id));
    expect(new Set(ids).size).toBe(TOTAL);
    for (const [i, page] of pages.entries()) {
      expect(page.activity.length).toBeLessThanOrEqual(limit);
      const full = page.activity.length === limit;
      if (full) {
        const last = page.activity[page.activity.length - 1];
        // next is the last entry's own createdAt and id.
        expect(page.next).toEqual({ after: last.createdAt, afterId: last.id });
      } else {
        expect(page.next).toBeNull();
        expect(i).toBe(pages.length - 1);
      }
    }
    // A whole number of full pages ends with an empty page whose next is null.
    if (TOTAL % limit === 0) expect(pages[pages.length - 1]).toEqual({ activity: [], next: null });
    expect(pages).toHaveLength(Math.floor(TOTAL / limit) + 1);
  });

  it('answers the lines strictly after `after`, and with afterId the rest of a shared timestamp', async () => {
    const shared = expected.filter((r) => r.iso === sharedIso);
    expect(shared.length).toBeGreaterThanOrEqual(7);
    const lastOfGroup = expected.indexOf(shared[shared.length - 1]);
    const onlyAfter = await expectStatus(feed(`?limit=500&after=${encodeURIComponent(sharedIso)}`), 200);
    expect(onlyAfter.activity.map((e) => e.id)).toEqual(expected.slice(lastOfGroup + 1).map((r) => r.id));
    const middle = expected.indexOf(shared[2]);
    const rest = await expectStatus(feed(`?limit=500&after=${encodeURIComponent(sharedIso)}&afterId=${shared[2].id}`), 200);
    expect(rest.activity.map((e) => e.id)).toEqual(expected.slice(middle + 1).map((r) => r.id));
    // Upper-case ids and an offset spelling of the same moment work alike.
    const upper = await expectStatus(feed(`?limit=500&after=${encodeURIComponent(sharedIso)}&afterId=${shared[2].id.toUpperCase()}`), 200);
    expect(upper.activity.map((e) => e.id)).toEqual(expected.slice(middle + 1).map((r) => r.id));
    // After the last line there is nothing.
    const last = expected[expected.length - 1];
    expect(await expectStatus(feed(`?after=${encodeURIComponent(last.iso)}&afterId=${last.id}`), 200)).toEqual({ activity: [], next: null });
  });

  it('continues strictly after an entry given its own createdAt and id, lines of the same millisecond included', async () => {
    const all = (await expectStatus(feed('?limit=500'), 200)).activity;
    expect(all.map((e) => e.id)).toEqual(expected.map((r) => r.id));
    for (const [i, entry] of all.entries()) {
      const after = await expectStatus(feed(`?limit=500&after=${encodeURIComponent(entry.createdAt)}&afterId=${entry.id}`), 200);
      expect({ entry: i, ids: after.activity.map((e) => e.id) }).toEqual({ entry: i, ids: all.slice(i + 1).map((e) => e.id) });
    }
    // The four lines of one millisecond at different microseconds: shown alike, ordered by id.
    const sameMs = all.filter((e) => e.createdAt === '2098-01-01T00:00:00.500Z');
    expect(sameMs.map((e) => e.id)).toEqual(sameMs.map((e) => e.id).sort());
    // `after` alone skips that whole shown millisecond.
    const past = await expectStatus(feed(`?limit=500&after=${encodeURIComponent('2098-01-01T00:00:00.500Z')}`), 200);
    expect(past.activity.map((e) => e.createdAt)).toEqual(Array(6).fill('2099-01-01T00:00:00.123Z'));
  });

  it('lets a client page with the fields of the last entry it handled: every line once, no gaps', async () => {
    const seen: string[] = [];
    let query = '?limit=3';
    for (let guard = 0; guard < 100; guard++) {
      const page = await expectStatus(feed(query), 200);
      if (page.activity.length === 0) break;
      seen.push(...page.activity.map((e) => e.id));
      const last = page.activity[page.activity.length - 1];
      query = `?limit=3&after=${encodeURIComponent(last.createdAt)}&afterId=${last.id}`;
    }
    expect(seen).toEqual(expected.map((r) => r.id));
  });

  it('reads newest first with order=newest: the cursor and next continue to older lines, none skipped nor repeated', async () => {
    const newestFirst = [...expected].reverse().map((r) => r.id);
    expect((await expectStatus(feed('?limit=500&order=newest'), 200)).activity.map((e) => e.id)).toEqual(newestFirst);
    expect((await expectStatus(feed('?limit=500&order=oldest'), 200)).activity.map((e) => e.id)).toEqual(expected.map((r) => r.id));
    for (const limit of [1, 3, 7]) {
      const seen: string[] = [];
      let query = `?limit=${limit}&order=newest`;
      for (let guard = 0; guard < 200; guard++) {
        const page = await expectStatus(feed(query), 200);
        seen.push(...page.activity.map((e) => e.id));
        if (!page.next) break;
        expect(page.next).toEqual({ after: page.activity[page.activity.length - 1].createdAt, afterId: page.activity[page.activity.length - 1].id });
        query = `?limit=${limit}&order=newest&after=${encodeURIComponent(page.next.after)}&afterId=${page.next.afterId}`;
      }
      expect({ limit, seen }).toEqual({ limit, seen: newestFirst });
    }
    // `after` alone skips that whole shown millisecond, to older lines.
    const older = await expectStatus(feed(`?limit=500&order=newest&after=${encodeURIComponent('2099-01-01T00:00:00.123Z')}`), 200);
    expect(older.activity.slice(0, 4).map((e) => e.createdAt)).toEqual(Array(4).fill('2098-01-01T00:00:00.500Z'));
    // Before the oldest line there is nothing.
    const first = expected[0];
    expect(await expectStatus(feed(`?order=newest&after=${encodeURIComponent(first.iso)}&afterId=${first.id}`), 200)).toEqual({ activity: [], next: null });
  });

  it('refuses an order other than oldest or newest', async () => {
    for (const order of ['Newest', 'desc', '', 'latest']) {
      const res = await feed(`?order=${encodeURIComponent(order)}`);
      expect({ order, status: res.status, body: res.body }).toEqual({ order, status: 400, body: { error: 'order is oldest or newest.' } });
    }
  });

  it('pages 100 lines by default, up to 500 when asked', async () => {
    const pid = (await createProject(owner.client, 'Long feed', 'LONG')).id;
    // Forced clocks: 520 lines within 37 milliseconds, which no run of the API would stamp.
    await t.sql.query(
      `INSERT INTO activity (id, project_id, task_id, actor_id, kind, data, created_at)
       SELECT gen_random_uuid(), $1, NULL, $2, 'rules', '{"hash":"h","text":"t"}', '2030-01-01T00:00:00Z'::timestamptz + (n % 37) * interval '1 millisecond'
         FROM generate_series(1, 520) AS n`,
      [pid, owner.user.id],
    );
    const first = await expectStatus(feed('', owner.client, pid), 200);
    expect(first.activity).toHaveLength(100);
    expect(first.next).toEqual({ after: expect.any(String), afterId: first.activity[99].id });
    const big = await expectStatus(feed('?limit=500', owner.client, pid), 200);
    expect(big.activity).toHaveLength(500);
    expect(big.activity.slice(0, 100).map((e) => e.id)).toEqual(first.activity.map((e) => e.id));
    const rest = await expectStatus(feed(`?limit=500&after=${encodeURIComponent(big.next!.after)}&afterId=${big.next!.afterId}`, owner.client, pid), 200);
    expect(rest.activity).toHaveLength(20);
    expect(rest.next).toBeNull();
    expect(new Set([...big.activity, ...rest.activity].map((e) => e.id)).size).toBe(520);
  });

  it('refuses a limit outside 1..500 and a cursor that is not one with 400', async () => {
    for (const limit of ['0', '501', '-1', 'abc', '1.5', '', '1e2']) {
      const res = await feed<ErrorAnswer>(`?limit=${encodeURIComponent(limit)}`);
      expect([limit, res.status]).toEqual([limit, 400]);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await feed('?limit=1')).status).toBe(200);
    expect((await expectStatus(feed('?limit=500'), 200)).activity).toHaveLength(TOTAL);
    expect((await feed('?after=yesterday')).status).toBe(400);
    expect((await feed(`?after=${encodeURIComponent(sharedIso)}&afterId=nope`)).status).toBe(400);
  });

  it('is any member’s (agents too); a non-member gets 404 Project not found., nobody 401', async () => {
    expect((await feed('?limit=1', member.client)).status).toBe(200);
    expect((await feed('?limit=1', agent.client)).status).toBe(200);
    expect(await feed('', outsider.client)).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
    expect(await feed('', owner.client, randomUUID())).toMatchObject({ status: 404, body: { error: 'Project not found.' } });
    expect(await feed('', new Client(t.api))).toMatchObject({ status: 401, body: { error: 'Sign in first, or send an agent token.' } });
  });
});
