import { randomUUID } from 'node:crypto';
import { Clock } from '@board/kernel';
import { aProject, anAgent, optionId, propertyNamed } from '../support/builders';
import { boardOf, projectFeed, readTask, taskFeed } from '../support/builders-b';
import { deliveriesSince } from '../support/builders-c';
import { ChangeListener, createProperty, createTask, expectError, expectStatus, listenChanges } from '../support/fixtures';
import { addMember, Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const REST = 'Say what happens to the rest: "next", "leave" or "clear".';
const RELEASES_OFF = 'Releases are off in this project.';
const SPRINTS_OFF = 'Sprints are off in this project.';
const NO_TARGET = 'Only an option with a target date can ship.';

/** The real clock, or a moment the test fixes. */
class TestClock extends Clock {
  fixed: Date | null = null;
  now(): Date {
    return this.fixed ?? new Date();
  }
}

/** Shipping releases and sprints: `POST /api/options/:optionId/ship`, and taking the day back. */
describe('POST /api/options/:optionId/ship', () => {
  let t: TestApp;
  let clock: TestClock;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let agent: Client;
  let changes: ChangeListener;

  const ship = (optionId: string, body: unknown, as: Client = owner.client) => as.post(`/options/${optionId}/ship`, body);
  /** A task's values and when it was archived (null while live), as its full read shows them. */
  const valuesOf = async (taskId: string) => {
    const task = await readTask(owner.client, taskId);
    return { values: task.values, archivedAt: task.archivedAt };
  };
  /** A project's option as its board reads it. */
  const optionOf = async (projectId: string, propertyId: string, id: string) =>
    (await boardOf(owner.client, projectId)).properties.find((p) => p.id === propertyId)!.options.find((o) => o.id === id)!;

  /** A project with releases and sprints on: its Status options, Release and Sprint properties. */
  async function setup(key: string, flags = { releases: true, sprints: true }) {
    const { project, status } = await aProject(owner.client, { name: key, key });
    await addMember(owner.client, project.id, member);
    await addMember(owner.client, project.id, admin, 'admin');
    await expectStatus(owner.client.patch(`/projects/${project.id}`, flags), 200);
    return {
      project,
      status: { id: status.id, todo: optionId(status, 'To do'), doing: optionId(status, 'In progress'), done: optionId(status, 'Done') },
      release: await propertyNamed(owner.client, project.id, 'Release'),
      sprint: await propertyNamed(owner.client, project.id, 'Sprint'),
    };
  }

  const option = async (propertyId: string, name: string, extra: Record<string, unknown> = { targetOn: '2026-03-01' }) =>
    (await expectStatus(owner.client.post(`/properties/${propertyId}/options`, { name, ...extra }), 201)).option;

  beforeAll(async () => {
    clock = new TestClock();
    t = await startTestApp({ clock, env: { SERVICE_WEBHOOK_ALLOW: '127.0.0.1' } });
    owner = await registerPerson(t, 'Olive');
    admin = await registerPerson(t, 'Ada');
    member = await registerPerson(t, 'Milo');
    changes = await listenChanges(t.databaseUrl);
  });
  afterAll(async () => {
    await changes.close();
    await t.close();
  });

  describe('refusals', () => {
    let s: Awaited<ReturnType<typeof setup>>;
    let v1: Awaited<ReturnType<typeof option>>;

    beforeAll(async () => {
      s = await setup('REF');
      v1 = await option(s.release.id, 'v1');
      agent = (await anAgent(owner.client, s.project.id)).client;
    });

    it('checks the option id first: malformed is 400, unknown or another project’s is 404', async () => {
      expectError(await ship('nope', {}), 400, 'That is not an option id.');
      expectError(await ship(randomUUID(), {}), 404, 'Option not found.');
      const other = await setup('OTH');
      const foreign = await option(other.release.id, 'x');
      const stranger = await registerPerson(t, 'Stan');
      await createProject(stranger.client, 'Own', 'OWN');
      expectError(await ship(foreign.id, { rest: 'leave' }, stranger.client), 404, 'Option not found.');
    });

    it('needs rest to be next, leave or clear, and strays to be true or false', async () => {
      for (const body of [{}, { rest: 'later' }, { rest: null }, { rest: 1 }]) expectError(await ship(v1.id, body), 400, REST);
      expectError(await ship(v1.id, { rest: 'leave', strays: 'yes' }), 400, 'Strays is true or false.');
      expectError(await ship(v1.id, undefined, owner.client), 400, REST);
    });

    it('refuses an option without a target date, and an option of a plain select', async () => {
      const undated = await option(s.release.id, 'undated', {});
      expectError(await ship(undated.id, { rest: 'leave' }), 400, NO_TARGET);
      expectError(await ship(s.status.todo, { rest: 'leave' }), 400, NO_TARGET);
    });

    it('refuses next on the last open option, naming it', async () => {
      const last = await option(s.release.id, 'v9');
      expectError(await ship(last.id, { rest: 'next' }), 400, 'v9 is the last option, so there is nothing to move to.');
      await expectStatus(ship(last.id, { rest: 'leave' }), 200);
    });

    it('refuses a shipped option with 409 and its day', async () => {
      const v9 = (await propertyNamed(owner.client, s.project.id, 'Release')).options.find((o) => o.name === 'v9')!;
      const day = (await optionOf(s.project.id, s.release.id, v9.id)).shippedAt;
      expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expectError(await ship(v9.id, { rest: 'leave' }), 409, `v9 already shipped on ${day}.`);
    });

    it('refuses releases while releases are off and sprints while sprints are off', async () => {
      const off = await setup('OFF');
      const r = await option(off.release.id, 'r1');
      const sp = await option(off.sprint.id, 's1');
      await expectStatus(owner.client.patch(`/projects/${off.project.id}`, { releases: false, sprints: false }), 200);
      expectError(await ship(r.id, { rest: 'leave' }), 400, RELEASES_OFF);
      expectError(await ship(sp.id, { rest: 'leave' }), 400, SPRINTS_OFF);
      // Off hides the changelog, not the properties: the board still reads each option's shipped day.
      expect([(await optionOf(off.project.id, off.release.id, r.id)).shippedAt, (await optionOf(off.project.id, off.sprint.id, sp.id)).shippedAt]).toEqual([null, null]);
    });

    it('lets any member ship, agents too', async () => {
      const a = await option(s.release.id, 'by-agent');
      expect(await expectStatus(ship(a.id, { rest: 'leave' }, agent), 200)).toMatchObject({ archived: 0, moved: 0, taken: 0, rest: 'leave' });
      const m = await option(s.release.id, 'by-member');
      await expectStatus(ship(m.id, { rest: 'clear' }, member.client), 200);
    });
  });

  describe('a release ship', () => {
    it('archives the over tasks, moves the rest to the next open option, and answers the counts and the UTC day', async () => {
      const s = await setup('SHIP');
      const v1 = await option(s.release.id, 'v1');
      const v2 = await option(s.release.id, 'v2');
      const v3 = await option(s.release.id, 'v3');
      await expectStatus(ship(v2.id, { rest: 'leave' }), 200); // shipped: skipped by next
      const done1 = await createTask(owner.client, s.project.id, 'Done 1', { [s.release.id]: v1.id, [s.status.id]: s.status.done });
      const done2 = await createTask(owner.client, s.project.id, 'Done 2', { [s.release.id]: v1.id, [s.status.id]: s.status.done });
      const open = await createTask(owner.client, s.project.id, 'Open', { [s.release.id]: v1.id, [s.status.id]: s.status.doing });
      const elsewhere = await createTask(owner.client, s.project.id, 'Elsewhere', { [s.release.id]: v3.id, [s.status.id]: s.status.done });
      const stray = await createTask(owner.client, s.project.id, 'Stray', { [s.status.id]: s.status.done });
      await changes.take();

      // 23:30 on the 4th in New York is the 5th in UTC.
      clock.fixed = new Date('2026-03-04T23:30:00-05:00');
      let answer: unknown;
      try {
        answer = await expectStatus(ship(v1.id, { rest: 'next' }, member.client), 200);
      } finally {
        clock.fixed = null;
      }
      expect(answer).toEqual({ archived: 2, moved: 1, rest: 'next', shippedAt: '2026-03-05', taken: 0 });

      expect((await valuesOf(done1.id)).archivedAt).not.toBeNull();
      expect((await valuesOf(done2.id)).archivedAt).not.toBeNull();
      expect(await valuesOf(open.id)).toMatchObject({ archivedAt: null, values: { [s.release.id]: v3.id } });
      expect((await valuesOf(elsewhere.id)).archivedAt).toBeNull();
      expect(await valuesOf(stray.id)).toMatchObject({ archivedAt: null, values: { [s.status.id]: s.status.done } });

      const read = await expectStatus(owner.client.get(`/projects/${s.project.id}/board`), 200);
      const shipped = read.properties.find((p) => p.id === s.release.id)!.options.find((o) => o.id === v1.id)!;
      expect(shipped.shippedAt).toBe('2026-03-05');

      // Feed: one archive line per archived task, one value line for the moved one, all with one shipId.
      const feed = (await projectFeed(owner.client, s.project.id)).filter((l) => 'shipId' in l.data);
      const ofThisShip = feed.filter((l) => [done1.id, done2.id, open.id].includes(l.taskId!));
      expect(ofThisShip).toHaveLength(3);
      expect(new Set(ofThisShip.map((l) => l.data.shipId)).size).toBe(1);
      expect(ofThisShip.map((l) => [l.taskId, l.kind, l.data.action ?? l.data.value]).sort()).toEqual(
        [[done1.id, 'archive', 'archived'], [done2.id, 'archive', 'archived'], [open.id, 'value', 'v3']].sort(),
      );
      expect(ofThisShip.find((l) => l.kind === 'value')!.data).toEqual({
        property: 'Release', value: 'v3', changes: { [s.release.id]: [v1.id, v3.id] }, shipId: ofThisShip[0].data.shipId,
      });

      // One stream ring for the whole ship.
      expect((await changes.take()).filter((n) => n.projectId === s.project.id)).toEqual([{ projectId: s.project.id, scope: 'board', clientId: null }]);
    });

    it('leave keeps the rest on the option; clear takes the value off', async () => {
      const s = await setup('REST');
      const a = await option(s.release.id, 'a');
      const b = await option(s.release.id, 'b');
      const left = await createTask(owner.client, s.project.id, 'Left', { [s.release.id]: a.id });
      const cleared = await createTask(owner.client, s.project.id, 'Cleared', { [s.release.id]: b.id, [s.status.id]: s.status.todo });
      expect(await expectStatus(ship(a.id, { rest: 'leave' }), 200)).toMatchObject({ archived: 0, moved: 0, rest: 'leave' });
      expect((await valuesOf(left.id)).values[s.release.id]).toBe(a.id);
      expect(await expectStatus(ship(b.id, { rest: 'clear' }), 200)).toMatchObject({ archived: 0, moved: 1, rest: 'clear' });
      expect((await valuesOf(cleared.id)).values).toEqual({ [s.status.id]: s.status.todo });
      const line = (await taskFeed(owner.client, cleared.id, 'value')).at(-1)!;
      expect(line.data).toEqual({ property: 'Release', value: null, changes: { [s.release.id]: [b.id, null] }, shipId: expect.any(String) });
    });

    it('with strays takes along the over tasks in no release, and archives them', async () => {
      const s = await setup('STRAY');
      const r = await option(s.release.id, 'r');
      const other = await option(s.release.id, 'other');
      const stray = await createTask(owner.client, s.project.id, 'Stray done', { [s.status.id]: s.status.done });
      const notOver = await createTask(owner.client, s.project.id, 'Stray open', { [s.status.id]: s.status.doing });
      const inOther = await createTask(owner.client, s.project.id, 'In other', { [s.release.id]: other.id, [s.status.id]: s.status.done });
      const mine = await createTask(owner.client, s.project.id, 'Mine', { [s.release.id]: r.id, [s.status.id]: s.status.done });
      expect(await expectStatus(ship(r.id, { rest: 'leave', strays: true }), 200)).toEqual({
        archived: 2, moved: 0, rest: 'leave', shippedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), taken: 1,
      });
      expect(await valuesOf(stray.id)).toMatchObject({ values: { [s.release.id]: r.id }, archivedAt: expect.any(String) });
      expect((await valuesOf(notOver.id)).archivedAt).toBeNull();
      expect((await valuesOf(inOther.id)).archivedAt).toBeNull();
      expect((await valuesOf(mine.id)).archivedAt).not.toBeNull();
      const shipLines = (await taskFeed(owner.client, stray.id)).filter((l) => 'shipId' in l.data);
      expect(shipLines.map((l) => l.kind)).toEqual(['value', 'archive']);
      const taken = shipLines.find((l) => l.kind === 'value')!;
      expect(taken.data.changes).toEqual({ [s.release.id]: [null, r.id] });
    });

    it('a value the new option hides is dropped, and the line says so', async () => {
      const s = await setup('WHEN');
      const a = await option(s.release.id, 'a');
      const b = await option(s.release.id, 'b');
      const notes = await createProperty(owner.client, s.project.id, 'Notes', 'text');
      const review = await createProperty(owner.client, s.project.id, 'Review', 'select', ['Needed']);
      for (const p of [notes, review]) {
        await expectStatus(owner.client.patch(`/properties/${p.id}`, { when: { propertyId: s.release.id, optionIds: [a.id] } }), 200);
      }
      const task = await createTask(owner.client, s.project.id, 'Noted', { [s.release.id]: a.id, [notes.id]: 'words', [review.id]: review.options[0].id });
      expect(await expectStatus(ship(a.id, { rest: 'next' }), 200)).toMatchObject({ moved: 1 });
      expect((await valuesOf(task.id)).values).toEqual({ [s.release.id]: b.id });
      const [line] = (await taskFeed(owner.client, task.id)).filter((l) => 'shipId' in l.data);
      expect(line.data).toMatchObject({ property: 'Release', value: 'b', dropped: ['Notes', 'Review'], propertyIds: [notes.id, review.id], hidBy: b.id });
      // Charts follow selects by `changes`: the release and the select the rule dropped (a text is not followed).
      expect(line.data.changes).toEqual({ [s.release.id]: [a.id, b.id], [review.id]: [review.options[0].id, null] });
    });
  });

  describe('a sprint ship', () => {
    it('moves the rest to the next sprint and takes no strays', async () => {
      const s = await setup('SPR');
      const s1 = await option(s.sprint.id, 'S1');
      const s2 = await option(s.sprint.id, 'S2');
      const over = await createTask(owner.client, s.project.id, 'Over', { [s.sprint.id]: s1.id, [s.status.id]: s.status.done });
      const open = await createTask(owner.client, s.project.id, 'Open', { [s.sprint.id]: s1.id });
      const stray = await createTask(owner.client, s.project.id, 'Stray', { [s.status.id]: s.status.done });
      expect(await expectStatus(ship(s1.id, { rest: 'next', strays: true }), 200)).toMatchObject({ archived: 1, moved: 1, taken: 0 });
      expect((await valuesOf(over.id)).archivedAt).not.toBeNull();
      expect((await valuesOf(open.id)).values[s.sprint.id]).toBe(s2.id);
      expect(await valuesOf(stray.id)).toMatchObject({ archivedAt: null, values: { [s.status.id]: s.status.done } });
    });
  });

  describe('webhooks', () => {
    it('rings each webhook once for the whole ship, about the project; a value-only webhook hears a value ring', async () => {
      const s = await setup('HOOK');
      const hook = async (kinds: string[]) =>
        (await expectStatus(owner.client.post(`/projects/${s.project.id}/webhooks`, { url: 'http://127.0.0.1:9/hook', kinds }), 201)).webhook.id;
      const all = await hook([]);
      const archives = await hook(['archive']);
      const values = await hook(['value']);
      const comments = await hook(['comment']);
      const r1 = await option(s.release.id, 'r1');
      await option(s.release.id, 'r2');
      for (let i = 0; i < 5; i++) await createTask(owner.client, s.project.id, `Done ${i}`, { [s.release.id]: r1.id, [s.status.id]: s.status.done });
      for (let i = 0; i < 3; i++) await createTask(owner.client, s.project.id, `Open ${i}`, { [s.release.id]: r1.id });
      const since = await deliveriesSince(owner.client, s.project.id);
      expect(await expectStatus(ship(r1.id, { rest: 'next' }), 200)).toMatchObject({ archived: 5, moved: 3 });
      const deliveries = await since();
      const byHook = (id: string) => deliveries.filter((d) => d.webhookId === id).map((d) => d.kind);
      expect(byHook(all)).toEqual(['archive']);
      expect(byHook(archives)).toEqual(['archive']);
      expect(byHook(values)).toEqual(['value']);
      expect(byHook(comments)).toEqual([]);
      for (const d of deliveries) expect(d.taskKey).toBeNull();
      // Storage itself: the body each delivery will post, which no read shows (and port 9 takes nothing).
      const bodies = (await t.sql.query(`SELECT body FROM webhook_deliveries WHERE project_id = $1 AND id = ANY($2::uuid[])`, [s.project.id, deliveries.map((d) => d.id)])).rows;
      expect(bodies).toHaveLength(3);
      for (const d of bodies) expect(JSON.parse(d.body)).toMatchObject({ projectId: s.project.id, projectKey: 'HOOK', taskId: null, taskKey: null });
    });
  });

  describe('taking the day back', () => {
    it('is the owner’s or an admin’s; the option can then ship again', async () => {
      const s = await setup('BACK');
      const v = await option(s.release.id, 'v');
      const task = await createTask(owner.client, s.project.id, 'T', { [s.release.id]: v.id, [s.status.id]: s.status.done });
      await expectStatus(ship(v.id, { rest: 'leave' }), 200);
      const agentOf = (await anAgent(owner.client, s.project.id, 'Bot')).client;
      expectError(await member.client.patch(`/options/${v.id}`, { shippedAt: null }), 403, 'Only the owner or an admin can take back a shipped day.');
      expectError(await agentOf.patch(`/options/${v.id}`, { shippedAt: null }), 403, 'Only a person can do this.');
      expect((await expectStatus(admin.client.patch(`/options/${v.id}`, { shippedAt: null }), 200)).option.shippedAt).toBeNull();
      expect((await expectStatus(owner.client.get(`/projects/${s.project.id}/changelog`), 200)).changelog).toEqual([]);
      // Shipping again records afresh: the task archived the first time is still over and holds it.
      expect(await expectStatus(ship(v.id, { rest: 'leave' }), 200)).toMatchObject({ archived: 0 });
      const log = (await expectStatus(owner.client.get(`/projects/${s.project.id}/changelog`), 200)).changelog;
      expect(log.map((e) => e.tasks.map((x) => x.id))).toEqual([[task.id]]);
    });
  });
});
