import { randomUUID } from 'node:crypto';
import { DomainError, OPTION_COLORS } from '@board/kernel';
import { PropertyRepository } from '@board/properties';
import { ChangeListener, createProperty, createTask, expectError, expectStatus, insertTask as insertTaskRow, listenChanges } from '../support/fixtures';
import { boardOf, projectFeed, valuesOf as valuesRead } from '../support/builders-b';
import { aTeam } from '../support/builders';
import { anAdmin } from '../support/builders-d';
import { Client, createProject, Person, startTestApp, TestApp } from '../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const OPTION_NOT_FOUND = 'Option not found.';
const NOT_AN_OPTION_ID = 'That is not an option id.';
const COLOR_INVALID = 'The colour must look like #3fb0c8.';

describe('options', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let agent: Client;
  let projectId: string;
  let otherProjectId: string;
  let changes: ChangeListener;
  let taskNumber = 0;

  const rows = async (sql: string, params: unknown[] = []) => (await t.sql.query(sql, params)).rows;
  const one = async (sql: string, params: unknown[] = []) => (await rows(sql, params))[0];
  /** The names of a property of the project, in board order. */
  const optionNames = async (propertyId: string) =>
    ((await boardOf(owner.client, projectId)).properties.find((x) => x.id === propertyId)?.options ?? []).map((o) => o.name);
  const valuesOf = (taskId: string) => valuesRead(owner.client, taskId);

  async function insertTask(values: Record<string, unknown>, extra: { archived?: boolean; deleted?: boolean; pid?: string } = {}): Promise<string> {
    // Far past the numbers the API hands out in these tests, so the two never meet.
    const number = 100_000 + ++taskNumber;
    return insertTaskRow(t, extra.pid ?? projectId, { number, title: `Task ${number}`, values, archived: extra.archived, deleted: extra.deleted });
  }

  const property = (name: string, type: string, options: string[] = [], as: Client = owner.client, pid = projectId) =>
    createProperty(as, pid, name, type, options);

  async function option(propertyId: string, body: Record<string, unknown>, as: Client = owner.client) {
    const res = await as.post(`/properties/${propertyId}/options`, body);
    if (res.status !== 201) throw new Error(`option create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.option;
  }

  /** A dated select: a release property. */
  async function releases(name: string) {
    const p = await property(name, 'select');
    expect((await owner.client.patch(`/properties/${p.id}`, { dated: true })).status).toBe(200);
    return p;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, member, outsider, project: { id: projectId }, otherProject: { id: otherProjectId }, agent: { client: agent } } = await aTeam(t, { name: 'Options', key: 'OPT' }));
    admin = await anAdmin(t, owner.client, projectId, 'Ada');
    changes = await listenChanges(t.databaseUrl);
  });
  afterAll(async () => {
    await changes.close();
    await t.close();
  });
  beforeEach(() => changes.take());

  describe('POST /api/properties/:propertyId/options', () => {
    it('appends an option and answers 201 { option }', async () => {
      const p = await property('Priority', 'select', ['Low']);
      await changes.take();
      const res = await member.client.post(`/properties/${p.id}/options`, { name: '  High  ', color: '#3FB0C8' }, { headers: { 'x-service-client': 'tab-1' } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['option']);
      expect(res.body.option).toEqual({ id: expect.stringMatching(UUID), propertyId: p.id, name: 'High', color: '#3fb0c8', position: expect.any(String) });
      expect(res.body.option.position > p.options[0].position!).toBe(true);
      expect(await optionNames(p.id)).toEqual(['Low', 'High']);
      expect(await changes.take()).toEqual([{ projectId, scope: 'board', clientId: 'tab-1' }]);
      expect(await projectFeed(owner.client, projectId)).toEqual([]);
    });

    it('ignores a colour that is not #rrggbb and takes the next unused palette colour', async () => {
      const p = await property('Colours', 'multi_select', ['A', 'B']);
      expect(p.options.map((o) => o.color)).toEqual([OPTION_COLORS[0], OPTION_COLORS[1]]);
      expect((await option(p.id, { name: 'C', color: 'red' })).color).toBe(OPTION_COLORS[2]);
      expect((await option(p.id, { name: 'D', color: '#12345' })).color).toBe(OPTION_COLORS[3]);
      expect((await option(p.id, { name: 'E', color: OPTION_COLORS[5] })).color).toBe(OPTION_COLORS[5]);
      expect((await option(p.id, { name: 'F' })).color).toBe(OPTION_COLORS[4]);
      expect((await option(p.id, { name: 'G', color: null })).color).toBe(OPTION_COLORS[6]);
    });

    it('cycles through the twelve colours once every one is used', async () => {
      const p = await property('Full', 'select');
      const colours: string[] = [];
      for (let i = 0; i < 14; i++) colours.push((await option(p.id, { name: `O${i}` })).color);
      expect(colours.slice(0, 12)).toEqual([...OPTION_COLORS]);
      expect(OPTION_COLORS).toContain(colours[12]);
      expect(OPTION_COLORS).toContain(colours[13]);
    });

    it('works on iterations, and refuses properties without options', async () => {
      const sprint = await property('Sprint', 'iteration');
      expect((await option(sprint.id, { name: 'S1' })).name).toBe('S1');
      for (const type of ['text', 'person', 'number', 'date', 'checkbox', 'link']) {
        const p = await property(`Plain ${type}`, type);
        expectError(await owner.client.post(`/properties/${p.id}/options`, { name: 'x' }), 400, 'Only select properties have options.');
      }
    });

    it('refuses a bad name', async () => {
      const p = await property('Names', 'select');
      const post = (body: unknown) => owner.client.post(`/properties/${p.id}/options`, body);
      expectError(await post({}), 400, 'Name cannot be empty.');
      expectError(await post({ name: '  ' }), 400, 'Name cannot be empty.');
      expectError(await post({ name: 3 }), 400, 'Name must be text.');
      expectError(await post({ name: 'x'.repeat(41) }), 400, 'Name is too long (max 40 characters).');
      expect(await optionNames(p.id)).toEqual([]);
    });

    it('answers 409 for a name the property already has, case and spaces ignored', async () => {
      const p = await property('Stage', 'select', ['Ready']);
      await changes.take();
      expectError(await owner.client.post(`/properties/${p.id}/options`, { name: ' READY ' }), 409, 'Stage already has an option named READY.');
      expect(await changes.take()).toEqual([]);
      // Another property may carry the same name.
      const other = await property('Other stage', 'select');
      expect((await option(other.id, { name: 'Ready' })).name).toBe('Ready');
    });

    it('makes one option of ten simultaneous creates of one name; the other nine get 409', async () => {
      const p = await property('Race', 'select');
      const names = ['Done', 'done', ' DONE', 'Done ', 'dOnE', ' done ', 'DONE', 'DoNe', 'doNE', '  Done  '];
      const answers = await Promise.all(names.map((name, i) => (i % 2 ? member.client : agent).post(`/properties/${p.id}/options`, { name })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([201, ...Array(9).fill(409)]);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error).toMatch(/^Race already has an option named .+\.$/);
      expect(await optionNames(p.id)).toHaveLength(1);
    });

    it('leaves the last word to the unique index: a clash the check did not see is option.duplicate', async () => {
      const p = await property('Indexed', 'select', ['Ready']);
      const store = t.app.get(PropertyRepository, { strict: false });
      const row = { id: randomUUID(), propertyId: p.id, name: ' READY ', color: OPTION_COLORS[1], position: 'b0', startsOn: null, targetOn: null, note: null };
      const error = await store.insertOption(projectId, row, { property: 'Indexed', option: 'READY' }).then(() => null, (e) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'option.duplicate', params: { property: 'Indexed', option: 'READY' } });
      expect(await optionNames(p.id)).toEqual(['Ready']);
    });

    it('lets agents create, and answers 404 to outsiders and for unknown properties', async () => {
      const p = await property('Open', 'select');
      expect((await option(p.id, { name: 'By robot' }, agent)).name).toBe('By robot');
      expectError(await outsider.client.post(`/properties/${p.id}/options`, { name: 'x' }), 404, 'Property not found.');
      expectError(await owner.client.post(`/properties/${randomUUID()}/options`, { name: 'x' }), 404, 'Property not found.');
      expectError(await owner.client.post(`/properties/nope/options`, { name: 'x' }), 400, 'That is not a property id.');
    });

    describe('dated options', () => {
      it('takes startsOn, targetOn and note on a dated select and an iteration', async () => {
        const r = await releases('Release');
        const v1 = await option(r.id, { name: 'v1', startsOn: '2025-01-06', targetOn: '2025-02-28', note: '  **Big** one ' });
        expect(v1).toEqual({
          id: expect.stringMatching(UUID), propertyId: r.id, name: 'v1', color: OPTION_COLORS[0], position: expect.any(String),
          startsOn: '2025-01-06', targetOn: '2025-02-28', note: '**Big** one', shippedAt: null,
        });
        const stored = (await boardOf(owner.client, projectId)).properties.find((x) => x.id === r.id)?.options.find((o) => o.id === v1.id);
        expect({ s: stored?.startsOn, t: stored?.targetOn, note: stored?.note }).toEqual({ s: '2025-01-06', t: '2025-02-28', note: '**Big** one' });
        const sprint = await property('Iteration', 'iteration');
        expect(await option(sprint.id, { name: 'S1', startsOn: null, note: '' })).toMatchObject({ startsOn: null, targetOn: null, note: null, shippedAt: null });
      });

      it('refuses a day that is not YYYY-MM-DD and a note over 8000 characters', async () => {
        const r = await releases('Milestones');
        expectError(await owner.client.post(`/properties/${r.id}/options`, { name: 'm', startsOn: '2025-02-30' }), 400, 'StartsOn needs a date like YYYY-MM-DD.');
        expectError(await owner.client.post(`/properties/${r.id}/options`, { name: 'm', targetOn: '01/02/2025' }), 400, 'TargetOn needs a date like YYYY-MM-DD.');
        expectError(await owner.client.post(`/properties/${r.id}/options`, { name: 'm', targetOn: 20250101 }), 400, 'TargetOn needs a date like YYYY-MM-DD.');
        expectError(await owner.client.post(`/properties/${r.id}/options`, { name: 'm', note: 'x'.repeat(8001) }), 400, 'Note is too long (max 8000 characters).');
        expectError(await owner.client.post(`/properties/${r.id}/options`, { name: 'm', note: 5 }), 400, 'Note must be text.');
        expect(await optionNames(r.id)).toEqual([]);
      });

      it('leaves the dated keys off plain options and ignores them there', async () => {
        const p = await property('Plain', 'select');
        const o = await option(p.id, { name: 'x', startsOn: 'whenever', targetOn: '2025-01-01', note: 'n' });
        expect(Object.keys(o).sort()).toEqual(['color', 'id', 'name', 'position', 'propertyId']);
        // Storage itself: the read leaves the dated keys off a plain option, so only the row shows nothing was kept.
        expect(await one(`SELECT starts_on, target_on, note FROM options WHERE id = $1`, [o.id])).toEqual({ starts_on: null, target_on: null, note: null });
      });
    });
  });

  describe('PATCH /api/options/:optionId', () => {
    it('renames and recolours, answering { option }, and rings only when something changed', async () => {
      const p = await property('Edit', 'select', ['Alpha', 'Beta']);
      const [alpha] = p.options;
      await changes.take();
      const res = await member.client.patch(`/options/${alpha.id}`, { name: ' Gamma ', color: '#ABCDEF' }, { headers: { 'x-service-client': 'e' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ option: { ...alpha, name: 'Gamma', color: '#abcdef' } });
      expect(await changes.take()).toEqual([{ projectId, scope: 'board', clientId: 'e' }]);
      const same = await agent.patch(`/options/${alpha.id}`, { name: 'Gamma', color: '#abcdef' });
      expect(same.body).toEqual({ option: { ...alpha, name: 'Gamma', color: '#abcdef' } });
      expect((await agent.patch(`/options/${alpha.id}`, {})).status).toBe(200);
      expect(await changes.take()).toEqual([]);
    });

    it('lets an option change the case of its own name; another option\'s name is a 409', async () => {
      const p = await property('Case', 'select', ['Open', 'Closed']);
      const [open, closed] = p.options;
      expect((await owner.client.patch(`/options/${open.id}`, { name: 'OPEN' })).body.option.name).toBe('OPEN');
      expectError(await owner.client.patch(`/options/${open.id}`, { name: ' closed' }), 409, 'Case already has an option named closed.');
      expect(await optionNames(p.id)).toEqual(['OPEN', 'Closed']);
      expectError(await owner.client.patch(`/options/${closed.id}`, { name: '' }), 400, 'Name cannot be empty.');
    });

    it('refuses a malformed colour', async () => {
      const p = await property('Paint', 'select', ['Wall']);
      for (const color of ['red', '#abc', '3fb0c8', '#3fb0c8 ', null, 5]) {
        expectError(await owner.client.patch(`/options/${p.options[0].id}`, { color }), 400, COLOR_INVALID);
      }
    });

    it('refuses in the contract\'s order: the name and its clash, the colour, the dated fields, then afterId', async () => {
      const p = await property('Order', 'select', ['First', 'Second']);
      const [first] = p.options;
      const patch = (body: Record<string, unknown>) => owner.client.patch(`/options/${first.id}`, body);
      expectError(await patch({ name: 'second', color: 'red', afterId: 'nope' }), 409, 'Order already has an option named second.');
      expectError(await patch({ name: '', color: 'red' }), 400, 'Name cannot be empty.');
      expectError(await patch({ color: 'red', afterId: 'nope' }), 400, COLOR_INVALID);
      expectError(await patch({ afterId: 'nope' }), 400, 'That is not an option id.');
      const text = await property('Order text', 'text');
      expectError(await owner.client.post(`/properties/${text.id}/options`, { color: 'red', startsOn: 'soon' }), 400, 'Only select properties have options.');
      expectError(await owner.client.post(`/properties/${p.id}/options`, { color: 'red' }), 400, 'Name cannot be empty.');
      expect(await optionNames(p.id)).toEqual(['First', 'Second']);
    });

    it('moves after an option; null or an unknown id means the front', async () => {
      const p = await property('Moves', 'select', ['A', 'B', 'C']);
      const [a, b, c] = p.options;
      await changes.take();
      expect((await member.client.patch(`/options/${a.id}`, { afterId: c.id })).status).toBe(200);
      expect(await optionNames(p.id)).toEqual(['B', 'C', 'A']);
      expect(await changes.take()).toHaveLength(1);
      await member.client.patch(`/options/${a.id}`, { afterId: null });
      expect(await optionNames(p.id)).toEqual(['A', 'B', 'C']);
      const other = await property('Elsewhere', 'select', ['Z']);
      await member.client.patch(`/options/${c.id}`, { afterId: other.options[0].id });
      expect(await optionNames(p.id)).toEqual(['C', 'A', 'B']);
      await changes.take();
      const res = await member.client.patch(`/options/${a.id}`, { afterId: c.id });
      expect(res.body.option.position).toBe(a.position);
      expect(await changes.take()).toEqual([]);
      await member.client.patch(`/options/${b.id}`, { afterId: c.id.toUpperCase() });
      expect(await optionNames(p.id)).toEqual(['C', 'B', 'A']);
      expectError(await member.client.patch(`/options/${b.id}`, { afterId: 'top' }), 400, NOT_AN_OPTION_ID);
    });

    it('changes the days and note of a dated option', async () => {
      const r = await releases('Versions');
      const v = await option(r.id, { name: 'v1', startsOn: '2025-01-01' });
      const res = await member.client.patch(`/options/${v.id}`, { targetOn: '2025-03-31', note: 'Notes', startsOn: null });
      expect(res.body.option).toEqual({ ...v, startsOn: null, targetOn: '2025-03-31', note: 'Notes' });
      expectError(await member.client.patch(`/options/${v.id}`, { targetOn: 'soon' }), 400, 'TargetOn needs a date like YYYY-MM-DD.');
      expect((await member.client.patch(`/options/${v.id}`, { note: null })).body.option.note).toBeNull();
    });

    it('takes a shipped day back for the owner and admins only', async () => {
      const r = await releases('Shipped');
      const v = await option(r.id, { name: 'v1', targetOn: '2025-01-31' });
      // A forced clock: shipped on a fixed past day (shipping through the API stamps today).
      await t.sql.query(`UPDATE options SET shipped_at = '2025-02-01' WHERE id = $1`, [v.id]);
      expectError(await member.client.patch(`/options/${v.id}`, { shippedAt: null }), 403, 'Only the owner or an admin can take back a shipped day.');
      expectError(await agent.patch(`/options/${v.id}`, { shippedAt: null }), 403, 'Only a person can do this.');
      const read = await member.client.patch(`/options/${v.id}`, { note: 'still shipped' });
      expect(read.body.option.shippedAt).toBe('2025-02-01');
      await changes.take();
      const res = await admin.client.patch(`/options/${v.id}`, { shippedAt: null });
      expect(res.body.option).toMatchObject({ shippedAt: null, targetOn: '2025-01-31', note: 'still shipped' });
      expect(await changes.take()).toHaveLength(1);
      expect((await boardOf(owner.client, projectId)).properties.find((x) => x.id === r.id)?.options.find((o) => o.id === v.id)?.shippedAt).toBeNull();
    });

    it('answers 400 for a bad id and 404 for an unknown or foreign option', async () => {
      const theirs = await property('Theirs', 'select', ['Mine'], outsider.client, otherProjectId);
      expectError(await owner.client.patch(`/options/nope`, { name: 'x' }), 400, NOT_AN_OPTION_ID);
      expectError(await owner.client.patch(`/options/${randomUUID()}`, { name: 'x' }), 404, OPTION_NOT_FOUND);
      expectError(await owner.client.patch(`/options/${theirs.options[0].id}`, { name: 'x' }), 404, OPTION_NOT_FOUND);
    });
  });

  describe('DELETE /api/options/:optionId', () => {
    it('is for the owner and admins as persons', async () => {
      const p = await property('Guarded', 'select', ['Keep']);
      const id = p.options[0].id;
      expectError(await member.client.delete(`/options/${id}`), 403, 'Only the owner or an admin can delete options.');
      // The person gate comes first (issue 13): an agent is told it is not a person.
      expectError(await agent.delete(`/options/${id}`), 403, 'Only a person can do this.');
      expectError(await outsider.client.delete(`/options/${id}`), 404, OPTION_NOT_FOUND);
      expectError(await owner.client.delete(`/options/nope`), 400, NOT_AN_OPTION_ID);
      expect(await optionNames(p.id)).toEqual(['Keep']);
      await changes.take();
      expect((await admin.client.delete(`/options/${id}`, undefined, { headers: { 'x-service-client': 'd' } })).body).toEqual({ ok: true });
      expect(await changes.take()).toEqual([{ projectId, scope: 'board', clientId: 'd' }]);
      expect(await optionNames(p.id)).toEqual([]);
      expectError(await owner.client.delete(`/options/${id}`), 404, OPTION_NOT_FOUND);
    });

    it('scrubs it from every value: a select loses it, a multi-select drops it from its list', async () => {
      const single = await property('Single', 'select', ['Gone', 'Stays']);
      const multi = await property('Multi', 'multi_select', ['Gone', 'Stays']);
      const [gone, stays] = single.options.map((o) => o.id);
      const [mGone, mStays] = multi.options.map((o) => o.id);
      const text = await property('Words', 'text');
      const make = async (values: Record<string, unknown>) => (await createTask(owner.client, projectId, 'Holder', values)).id;
      const a = await make({ [single.id]: gone, [multi.id]: [mGone, mStays], [text.id]: gone });
      const b = await make({ [single.id]: stays, [multi.id]: [mGone] });
      await expectStatus(owner.client.post(`/tasks/${b}/archive`), 200);
      const c = await make({ [single.id]: gone });
      await expectStatus(owner.client.delete(`/tasks/${c}`), 200);
      const d = await make({ [multi.id]: [mStays] });
      expect((await owner.client.delete(`/options/${gone}`)).status).toBe(200);
      expect((await owner.client.delete(`/options/${mGone}`)).status).toBe(200);
      expect(await valuesOf(a)).toEqual({ [multi.id]: [mStays], [text.id]: gone });
      expect(await valuesOf(b)).toEqual({ [single.id]: stays });
      // A deleted task is read once it is back.
      await expectStatus(owner.client.post(`/tasks/${c}/restore`), 200);
      expect(await valuesOf(c)).toEqual({});
      expect(await valuesOf(d)).toEqual({ [multi.id]: [mStays] });
    });

    it('takes it out of doneWhen and leaves saved filter rules alone', async () => {
      const pid = (await createProject(owner.client, 'Done options')).id;
      const before = await boardOf(owner.client, pid);
      const status = before.properties.find((x) => x.name === 'Status')!;
      const [todo, , done] = status.options.map((o) => o.id);
      const filters = { rules: [{ propertyId: status.id, op: 'is', values: [done] }] };
      for (const v of before.views) await expectStatus(owner.client.patch(`/views/${v.id}`, { filters }), 200);
      await expectStatus(owner.client.patch(`/projects/${pid}`, { doneWhen: { propertyId: status.id, optionIds: [todo, done] } }), 200);
      expect((await owner.client.delete(`/options/${done}`)).status).toBe(200);
      expect((await boardOf(owner.client, pid)).project.doneWhen).toEqual({ propertyId: status.id, optionIds: [todo] });
      // Storage itself: the saved rules, which every read shows cleaned of the deleted option.
      expect((await one(`SELECT filters FROM views WHERE project_id = $1`, [pid])).filters).toEqual(filters);
    });
  });

  describe('GET /api/options/:optionId/count', () => {
    it('counts tasks holding it alone or in a list, archived included, deleted not', async () => {
      const single = await property('Count single', 'select', ['One', 'Two']);
      const multi = await property('Count multi', 'multi_select', ['One', 'Two']);
      const [one1, two1] = single.options.map((o) => o.id);
      const [oneM, twoM] = multi.options.map((o) => o.id);
      const make = async (values: Record<string, unknown>) => (await createTask(owner.client, projectId, 'Counted', values)).id;
      await make({ [single.id]: one1, [multi.id]: [oneM, twoM] });
      await expectStatus(owner.client.post(`/tasks/${await make({ [single.id]: one1, [multi.id]: [twoM] })}/archive`), 200);
      await expectStatus(owner.client.delete(`/tasks/${await make({ [single.id]: one1, [multi.id]: [oneM] })}`), 200);
      // Stored values the API never writes (an empty list, a multi-select holding a bare id) go straight into the table.
      await insertTask({ [single.id]: two1, [multi.id]: [] });
      await insertTask({ [multi.id]: one1 });
      const res = await member.client.get(`/options/${one1}/count`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tasks: 2 });
      expect((await agent.get(`/options/${two1}/count`)).body).toEqual({ tasks: 1 });
      expect((await agent.get(`/options/${oneM}/count`)).body).toEqual({ tasks: 1 });
      expect((await agent.get(`/options/${twoM}/count`)).body).toEqual({ tasks: 2 });
      expectError(await outsider.client.get(`/options/${one1}/count`), 404, OPTION_NOT_FOUND);
      expectError(await owner.client.get(`/options/x/count`), 400, NOT_AN_OPTION_ID);
    });
  });
});
