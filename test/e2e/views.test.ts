import { randomUUID } from 'node:crypto';
import { createProperty, createTask, expectStatus, listenChanges } from '../support/fixtures';
import { Agent, aTeam } from '../support/builders';
import { anAdmin } from '../support/builders-d';
import { addMember, Answer, Client, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { ProjectAnswer, ViewAnswer } from '../support/answers';

/** Views: create, update, delete, and the cleaning of saved rules on every read. */

const VIEW_KEYS = ['cardView', 'filters', 'groupById', 'id', 'isDefault', 'kind', 'lens', 'lensSort', 'name', 'position', 'sort'];

describe('views', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let robo: Agent;
  let project: ProjectAnswer;
  let status: { id: string; options: { id: string; name: string }[] };
  let mainViewId: string;
  // One property of each type.
  const props: Record<string, { id: string; options: { id: string; name: string }[] }> = {};
  let foreignProperty: string;

  const board = async (c: Client = owner.client) => expectStatus(c.get(`/projects/${project.id}/board`), 200);
  const viewOf = async (id: string, c: Client = owner.client) => (await board(c)).views.find((v) => v.id === id);
  const createView = async (body: Record<string, unknown>, c: Client = owner.client) =>
    (await expectStatus(c.post(`/projects/${project.id}/views`, body), 201)).view;
  /** A view as the board shows it (its own filters and sort; a lens is a field of its own). */
  const rawView = async (id: string) => {
    const found = await viewOf(id);
    if (!found) throw new Error(`no view ${id} on the board`);
    return found;
  };
  // Storage itself: the filters as saved, where a test must tell them from the cleaning every read does.
  const storedFilters = async (id: string) => (await t.sql.query('SELECT filters FROM views WHERE id = $1', [id])).rows[0].filters;

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, {
      name: 'Views',
      key: 'VW',
      properties: {
        Priority: ['select', ['High', 'Low']], Sprint: ['iteration', ['S1', 'S2']], Owner: ['person'], Flag: ['checkbox'], Notes: ['text'],
        Points: ['number'], Due: ['date'], Links: ['link'], Tags: ['multi_select', ['a', 'b']],
      },
    });
    ({ owner, member, outsider, project, status, agent: robo } = team);
    admin = await anAdmin(t, owner.client, project.id, 'Ada');
    mainViewId = (await board()).views[0].id;
    const { Priority, Sprint, Owner, Flag, Notes, Points, Due, Links, Tags } = team.props;
    Object.assign(props, { select: Priority, iteration: Sprint, person: Owner, checkbox: Flag, text: Notes, number: Points, date: Due, link: Links, multi_select: Tags });
    foreignProperty = (await createProperty(outsider.client, team.otherProject.id, 'Elsewhere', 'select', ['x'])).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('POST /api/projects/:projectId/views', () => {
    it('creates a board grouped by a select by default and answers the whole view', async () => {
      const res = await owner.client.post(`/projects/${project.id}/views`, { name: '  By priority  ', groupById: props.select.id });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['view']);
      expect(res.body.view).toEqual({
        id: expect.any(String),
        name: 'By priority',
        kind: 'board',
        groupById: props.select.id,
        position: expect.any(String),
        isDefault: false,
        filters: { rules: [] },
        lens: { rules: [] },
        sort: null,
        lensSort: null,
        cardView: null,
      });
      expect(Object.keys(res.body.view).sort()).toEqual(VIEW_KEYS);
      const b = await board();
      const mine = b.views.find((v) => v.id === res.body.view.id)!;
      expect(mine).toEqual(res.body.view);
      // Appended after the main view, compared byte by byte.
      expect(b.views[0].id).toBe(mainViewId);
      expect(b.views[0].position < mine.position).toBe(true);
      expect(b.views[b.views.length - 1].id).toBe(res.body.view.id);
    });

    it.each(['select', 'iteration', 'person', 'checkbox'])('a board may group by a %s property', async (type) => {
      const view = await createView({ name: `Board ${type}`, kind: 'board', groupById: props[type].id });
      expect(view.kind).toBe('board');
      expect(view.groupById).toBe(props[type].id);
    });

    it.each(['select', 'iteration'])('a roadmap draws a %s property', async (type) => {
      const view = await createView({ name: `Roadmap ${type}`, kind: 'roadmap', groupById: props[type].id });
      expect(view).toMatchObject({ kind: 'roadmap', groupById: props[type].id, isDefault: false });
    });

    it('a list needs no grouping, and may remember any property of the project', async () => {
      const plain = await createView({ name: 'Everything', kind: 'list' });
      expect(plain).toMatchObject({ kind: 'list', groupById: null, filters: { rules: [] }, sort: null });
      const remembering = await createView({ name: 'Notes list', kind: 'list', groupById: props.text.id });
      expect(remembering).toMatchObject({ kind: 'list', groupById: props.text.id });
      expect((await rawView(remembering.id)).groupById).toBe(props.text.id);
    });

    it('a board or roadmap without a property: 400 Choose a property to group by.', async () => {
      for (const body of [{ name: 'x' }, { name: 'x', kind: 'board' }, { name: 'x', groupById: null }, { name: 'x', kind: 'roadmap' }]) {
        const res = await owner.client.post(`/projects/${project.id}/views`, body);
        expect([res.status, res.body]).toEqual([400, { error: 'Choose a property to group by.' }]);
      }
    });

    it.each(['text', 'number', 'date', 'link', 'multi_select'])('a board cannot group by a %s property', async (type) => {
      const res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', groupById: props[type].id });
      expect([res.status, res.body]).toEqual([400, { error: 'A view can only group by a select, iteration, person or checkbox property.' }]);
    });

    it.each(['person', 'checkbox', 'text', 'multi_select'])('a roadmap cannot draw a %s property', async (type) => {
      const res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', kind: 'roadmap', groupById: props[type].id });
      expect([res.status, res.body]).toEqual([400, { error: 'A roadmap draws the options of a select property.' }]);
    });

    it('refuses an unknown kind', async () => {
      for (const kind of ['table', 'Board', 5, true, '']) {
        const res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', kind, groupById: props.select.id });
        expect([res.status, res.body]).toEqual([400, { error: 'A view is a board, a list or a roadmap.' }]);
      }
    });

    it('refuses a grouping that is not a property id, or a property of another project', async () => {
      let res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', groupById: 'status' });
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a property id.' }]);
      res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', groupById: 42 });
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a property id.' }]);
      res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', groupById: foreignProperty });
      expect([res.status, res.body]).toEqual([400, { error: 'That property is not in this project.' }]);
      res = await owner.client.post(`/projects/${project.id}/views`, { name: 'x', kind: 'list', groupById: randomUUID() });
      expect([res.status, res.body]).toEqual([400, { error: 'That property is not in this project.' }]);
    });

    it('checks the name', async () => {
      const cases: [unknown, string][] = [
        [undefined, 'Name cannot be empty.'],
        [null, 'Name cannot be empty.'],
        ['   ', 'Name cannot be empty.'],
        [12, 'Name must be text.'],
        [['a'], 'Name must be text.'],
        ['n'.repeat(81), 'Name is too long (max 80 characters).'],
      ];
      for (const [name, error] of cases) {
        const res = await owner.client.post(`/projects/${project.id}/views`, { name, groupById: props.select.id });
        expect([res.status, res.body]).toEqual([400, { error }]);
      }
      expect((await createView({ name: 'n'.repeat(80), groupById: props.select.id })).name).toBe('n'.repeat(80));
    });

    it('writes nothing when refused', async () => {
      const before = (await board()).views.length;
      await owner.client.post(`/projects/${project.id}/views`, { name: 'nope', groupById: props.text.id });
      await owner.client.post(`/projects/${project.id}/views`, { name: 'nope', kind: 'map' });
      const after = (await board()).views.length;
      expect(after).toBe(before);
    });

    it('members and agents may create views; non-members get 404', async () => {
      expect((await createView({ name: 'Mike view', kind: 'list' }, member.client)).name).toBe('Mike view');
      const byAgent = await createView({ name: 'Robo view', groupById: props.person.id }, robo.client);
      expect(byAgent).toMatchObject({ name: 'Robo view', kind: 'board', groupById: props.person.id, lens: { rules: [] }, lensSort: null });
      const res = await outsider.client.post(`/projects/${project.id}/views`, { name: 'x', kind: 'list' });
      expect([res.status, res.body]).toEqual([404, { error: 'Project not found.' }]);
    });
  });

  describe('PATCH /api/views/:viewId', () => {
    let view: ViewAnswer;
    beforeEach(async () => {
      view = await createView({ name: 'Editable', kind: 'list' });
    });

    it('renames and answers { view }', async () => {
      const res = await owner.client.patch(`/views/${view.id}`, { name: '  Renamed ' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['view']);
      expect(res.body.view).toEqual({ ...view, name: 'Renamed' });
      expect((await viewOf(view.id))!.name).toBe('Renamed');
      const bad = await owner.client.patch(`/views/${view.id}`, { name: '' });
      expect([bad.status, bad.body]).toEqual([400, { error: 'Name cannot be empty.' }]);
    });

    it('changes kind and grouping; null clears a list grouping', async () => {
      let res = await owner.client.patch(`/views/${view.id}`, { kind: 'board', groupById: props.checkbox.id });
      expect(res.status).toBe(200);
      expect(res.body.view).toMatchObject({ kind: 'board', groupById: props.checkbox.id });
      res = await owner.client.patch(`/views/${view.id}`, { kind: 'roadmap', groupById: props.iteration.id });
      expect(res.body.view).toMatchObject({ kind: 'roadmap', groupById: props.iteration.id });
      res = await owner.client.patch(`/views/${view.id}`, { kind: 'list' });
      expect(res.body.view).toMatchObject({ kind: 'list', groupById: props.iteration.id });
      res = await owner.client.patch(`/views/${view.id}`, { groupById: null });
      expect(res.body.view).toMatchObject({ kind: 'list', groupById: null });
      expect((await rawView(view.id)).groupById).toBeNull();
      res = await owner.client.patch(`/views/${view.id}`, { groupById: props.date.id });
      expect(res.body.view).toMatchObject({ kind: 'list', groupById: props.date.id });
    });

    it('a board with no property: 400 A board needs a property to make its columns from.', async () => {
      // A list without grouping turned into a board.
      let res = await owner.client.patch(`/views/${view.id}`, { kind: 'board' });
      expect([res.status, res.body]).toEqual([400, { error: 'A board needs a property to make its columns from.' }]);
      // A board whose grouping is cleared.
      const boardView = await createView({ name: 'Board to clear', groupById: props.select.id });
      res = await owner.client.patch(`/views/${boardView.id}`, { groupById: null });
      expect([res.status, res.body]).toEqual([400, { error: 'A board needs a property to make its columns from.' }]);
      expect((await viewOf(boardView.id))!.groupById).toBe(props.select.id);
      expect((await viewOf(view.id))!.kind).toBe('list');
    });

    it('a list remembering a text property cannot become a board', async () => {
      await expectStatus(owner.client.patch(`/views/${view.id}`, { groupById: props.text.id }), 200);
      const res = await owner.client.patch(`/views/${view.id}`, { kind: 'board' });
      expect([res.status, res.body]).toEqual([400, { error: 'A view can only group by a select, iteration, person or checkbox property.' }]);
      expect((await viewOf(view.id))!.kind).toBe('list');
    });

    it('refuses an unknown kind and a bad grouping', async () => {
      let res = await owner.client.patch(`/views/${view.id}`, { kind: 'kanban' });
      expect([res.status, res.body]).toEqual([400, { error: 'A view is a board, a list or a roadmap.' }]);
      res = await owner.client.patch(`/views/${view.id}`, { kind: null });
      expect([res.status, res.body]).toEqual([400, { error: 'A view is a board, a list or a roadmap.' }]);
      res = await owner.client.patch(`/views/${view.id}`, { groupById: 'x' });
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a property id.' }]);
      res = await owner.client.patch(`/views/${view.id}`, { groupById: foreignProperty });
      expect([res.status, res.body]).toEqual([400, { error: 'That property is not in this project.' }]);
    });

    it('cleans filters on the way in: unknown property or operator dropped, extra keys dropped, text cut at 200', async () => {
      const [high, low] = props.select.options;
      const long = 'x'.repeat(250);
      const filters = {
        rules: [
          { propertyId: props.select.id, op: 'is', values: [high.id, randomUUID(), '__none__', high.id], text: 'ignored', colour: 'red' },
          { propertyId: randomUUID(), op: 'is', values: [low.id] },
          { propertyId: props.text.id, op: 'contains', text: `  ${long}  `, extra: 1 },
          { propertyId: props.number.id, op: 'contains', text: '3' },
          { propertyId: props.number.id, op: 'gt', text: '3' },
          { propertyId: props.date.id, op: 'on', text: 'tomorrow' },
          { propertyId: props.checkbox.id, op: 'is', values: ['true', 'yes', true] },
          { propertyId: props.link.id, op: 'empty', values: ['x'] },
          { propertyId: props.multi_select.id, op: 'is', values: [] },
          'not a rule',
        ],
        extra: true,
      };
      const res = await owner.client.patch(`/views/${view.id}`, { filters });
      expect(res.status).toBe(200);
      const cleaned = {
        rules: [
          { propertyId: props.select.id, op: 'is', values: [high.id, '__none__'] },
          { propertyId: props.text.id, op: 'contains', text: 'x'.repeat(200) },
          { propertyId: props.number.id, op: 'gt', text: '3' },
          { propertyId: props.checkbox.id, op: 'is', values: ['true'] },
          { propertyId: props.link.id, op: 'empty' },
        ],
      };
      expect(res.body.view.filters).toEqual(cleaned);
      // Cleaned before it is stored, not only when read.
      expect(await storedFilters(view.id)).toEqual(cleaned);
      expect((await viewOf(view.id))!.filters).toEqual(cleaned);
      // A second write replaces the whole set.
      const again = await owner.client.patch(`/views/${view.id}`, { filters: { rules: [] } });
      expect(again.body.view.filters).toEqual({ rules: [] });
      expect((await rawView(view.id)).filters).toEqual({ rules: [] });
    });

    it('person rules keep __me__ and user ids; __me__ on another type is dropped', async () => {
      const res = await owner.client.patch(`/views/${view.id}`, {
        filters: {
          rules: [
            { propertyId: props.person.id, op: 'is_not', values: ['__me__', member.user.id] },
            { propertyId: props.select.id, op: 'is', values: ['__me__'] },
          ],
        },
      });
      expect(res.body.view.filters).toEqual({ rules: [{ propertyId: props.person.id, op: 'is_not', values: ['__me__', member.user.id] }] });
    });

    it('sort: kept when valid, null restores the rank, a gone column is dropped on the way in', async () => {
      let res = await owner.client.patch(`/views/${view.id}`, { sort: { columnId: props.number.id, direction: 'desc', extra: 1 } });
      expect(res.body.view.sort).toEqual({ columnId: props.number.id, direction: 'desc' });
      expect((await rawView(view.id)).sort).toEqual({ columnId: props.number.id, direction: 'desc' });
      for (const columnId of ['_key', '_title', '_checklist', '_comments', '_created', '_updated']) {
        res = await owner.client.patch(`/views/${view.id}`, { sort: { columnId, direction: 'asc' } });
        expect(res.body.view.sort).toEqual({ columnId, direction: 'asc' });
      }
      res = await owner.client.patch(`/views/${view.id}`, { sort: null });
      expect(res.body.view.sort).toBeNull();
      expect((await rawView(view.id)).sort).toBeNull();
      await owner.client.patch(`/views/${view.id}`, { sort: { columnId: '_key', direction: 'asc' } });
      res = await owner.client.patch(`/views/${view.id}`, { sort: { columnId: randomUUID(), direction: 'asc' } });
      expect(res.status).toBe(200);
      expect(res.body.view.sort).toBeNull();
      expect((await rawView(view.id)).sort).toBeNull();
      res = await owner.client.patch(`/views/${view.id}`, { sort: { columnId: '_key', direction: 'up' } });
      expect(res.body.view.sort).toBeNull();
      res = await owner.client.patch(`/views/${view.id}`, { sort: { columnId: '_nope', direction: 'asc' } });
      expect(res.body.view.sort).toBeNull();
    });

    it('afterId moves the view; null or an unknown id means the front', async () => {
      const order = async () => (await board()).views.map((v) => v.id);
      const ids = await order();
      const last = ids[ids.length - 1];
      expect(last).toBe(view.id);
      // Straight after the main view.
      let res = await owner.client.patch(`/views/${view.id}`, { afterId: mainViewId });
      expect(res.status).toBe(200);
      let now = await order();
      expect(now.slice(0, 2)).toEqual([mainViewId, view.id]);
      expect(now.filter((id: string) => id !== view.id)).toEqual(ids.filter((id: string) => id !== view.id));
      expect(res.body.view.position).toBe((await viewOf(view.id))!.position);
      // To the front.
      res = await owner.client.patch(`/views/${view.id}`, { afterId: null });
      now = await order();
      expect(now[0]).toBe(view.id);
      // Back to the end, after the view that was last.
      await expectStatus(owner.client.patch(`/views/${view.id}`, { afterId: ids[ids.length - 2] }), 200);
      now = await order();
      expect(now[now.length - 1]).toBe(view.id);
      // An unknown id: the front.
      await expectStatus(owner.client.patch(`/views/${view.id}`, { afterId: randomUUID() }), 200);
      now = await order();
      expect(now[0]).toBe(view.id);
      const bad = await owner.client.patch(`/views/${view.id}`, { afterId: 'first' });
      expect([bad.status, bad.body]).toEqual([400, { error: 'That is not a view id.' }]);
    });

    it('agents may rename, regroup and sort, but writing filters is a person\'s: 403 and nothing written', async () => {
      let res = await robo.client.patch(`/views/${view.id}`, { name: 'Robo named', sort: { columnId: '_title', direction: 'desc' } });
      expect(res.status).toBe(200);
      expect(res.body.view).toMatchObject({ name: 'Robo named', sort: { columnId: '_title', direction: 'desc' }, lens: { rules: [] }, lensSort: null });
      res = await robo.client.patch(`/views/${view.id}`, { kind: 'board', groupById: props.select.id });
      expect(res.body.view).toMatchObject({ kind: 'board', groupById: props.select.id });
      res = await robo.client.patch(`/views/${view.id}`, { name: 'Sneaky', filters: { rules: [{ propertyId: props.text.id, op: 'empty' }] } });
      expect([res.status, res.body]).toEqual([403, { error: 'Only a person can do this.' }]);
      res = await robo.client.patch(`/views/${view.id}`, { filters: { rules: [] } });
      expect([res.status, res.body]).toEqual([403, { error: 'Only a person can do this.' }]);
      const raw = await rawView(view.id);
      expect(raw.name).toBe('Robo named');
      expect(raw.filters).toEqual({ rules: [] });
      // A person member may.
      res = await member.client.patch(`/views/${view.id}`, { filters: { rules: [{ propertyId: props.text.id, op: 'empty' }] } });
      expect(res.status).toBe(200);
      expect(res.body.view.filters).toEqual({ rules: [{ propertyId: props.text.id, op: 'empty' }] });
    });

    it('refuses in the contract\'s order: name, kind and grouping id first, then the grouping, the filters\' gate, afterId, the kind\'s needs', async () => {
      const patch = (body: Record<string, unknown>, c: Client = owner.client) => c.patch(`/views/${view.id}`, body);
      const error = async (body: Record<string, unknown>, c?: Client) => {
        const res = await patch(body, c);
        return [res.status, res.body];
      };
      expect(await error({ name: '', groupById: foreignProperty, afterId: 'nope' })).toEqual([400, { error: 'Name cannot be empty.' }]);
      expect(await error({ groupById: foreignProperty, afterId: 'nope' })).toEqual([400, { error: 'That property is not in this project.' }]);
      expect(await error({ filters: { rules: [] }, afterId: 'nope' }, robo.client)).toEqual([403, { error: 'Only a person can do this.' }]);
      expect(await error({ kind: 'board', afterId: 'nope' })).toEqual([400, { error: 'That is not a view id.' }]);
      expect(await error({ kind: 'board', afterId: null })).toEqual([400, { error: 'A board needs a property to make its columns from.' }]);
      expect((await viewOf(view.id))!.kind).toBe('list');
    });

    it('path checks: not an id 400, unknown 404, another project 404', async () => {
      let res = await owner.client.patch('/views/nope', { name: 'x' });
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a view id.' }]);
      res = await owner.client.patch(`/views/${randomUUID()}`, { name: 'x' });
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      res = await outsider.client.patch(`/views/${view.id}`, { name: 'x' });
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
    });
  });

  describe('broadcasts', () => {
    it('create and a real change ring board; a PATCH that changes nothing rings nothing', async () => {
      const l = await listenChanges(t.databaseUrl);
      try {
        const view = await createView({ name: 'Rings', kind: 'list' }, owner.client);
        await l.waitFor((p) => p.projectId === project.id && p.scope === 'board');
        expect(l.seen.filter((p) => p.projectId === project.id)).toHaveLength(1);
        await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'Rings', kind: 'list' }, { headers: { 'x-service-client': 'noop' } }), 200);
        await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'Rings 2' }, { headers: { 'x-service-client': 'real' } }), 200);
        await l.waitFor((p) => p.clientId === 'real');
        expect(l.seen.filter((p) => p.projectId === project.id).map((p) => [p.scope, p.clientId ?? null])).toEqual([
          ['board', null],
          ['board', 'real'],
        ]);
      } finally {
        await l.close();
      }
    });
  });

  describe('DELETE /api/views/:viewId', () => {
    it('the owner and admins delete a view; its lenses go with it', async () => {
      const a = await createView({ name: 'Doomed A', kind: 'list' });
      const b = await createView({ name: 'Doomed B', kind: 'list' });
      await expectStatus(member.client.put(`/views/${a.id}/lens`, { filters: { rules: [{ propertyId: props.text.id, op: 'empty' }] } }), 200);
      // Storage itself: the lens rows of a deleted view, which no read can show once the view is gone.
      expect((await t.sql.query('SELECT count(*)::int AS n FROM lenses WHERE view_id = $1', [a.id])).rows[0].n).toBe(1);
      let res: Answer = await owner.client.delete(`/views/${a.id}`);
      expect([res.status, res.body]).toEqual([200, { ok: true }]);
      res = await admin.client.delete(`/views/${b.id}`);
      expect([res.status, res.body]).toEqual([200, { ok: true }]);
      const ids = (await board()).views.map((v) => v.id);
      expect(ids).not.toContain(a.id);
      expect(ids).not.toContain(b.id);
      expect((await t.sql.query('SELECT count(*)::int AS n FROM lenses WHERE view_id = $1', [a.id])).rows[0].n).toBe(0);
      res = await owner.client.delete(`/views/${a.id}`);
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      res = await owner.client.patch(`/views/${a.id}`, { name: 'back?' });
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
    });

    it('the main view cannot be deleted', async () => {
      const res = await owner.client.delete(`/views/${mainViewId}`);
      expect([res.status, res.body]).toEqual([400, { error: 'The main view cannot be deleted.' }]);
      expect(await viewOf(mainViewId)).toMatchObject({ id: mainViewId, isDefault: true });
    });

    it('members and agents may not; wrong ids are refused', async () => {
      const v = await createView({ name: 'Kept', kind: 'list' });
      let res = await member.client.delete(`/views/${v.id}`);
      expect([res.status, res.body]).toEqual([403, { error: 'Only the owner or an admin can delete views.' }]);
      res = await robo.client.delete(`/views/${v.id}`);
      expect(res.status).toBe(403);
      res = await outsider.client.delete(`/views/${v.id}`);
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      expect((await rawView(v.id)).name).toBe('Kept');
      res = await owner.client.delete(`/views/${randomUUID()}`);
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      res = await owner.client.delete('/views/12');
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a view id.' }]);
    });
  });

  describe('saved rules are cleaned on every read', () => {
    it('a rule naming a deleted option or property is thrown away on the next read; the stored rules are not touched', async () => {
      const prio = await createProperty(owner.client, project.id, 'Severity', 'select', ['S-high', 'S-low', 'S-mid']);
      const size = await createProperty(owner.client, project.id, 'Size', 'number');
      const [sHigh, sLow, sMid] = prio.options;
      const view = await createView({ name: 'Cleaning', kind: 'list' });
      const one = await createTask(owner.client, project.id, 'Severe', { [prio.id]: sHigh.id, [size.id]: 3 });
      const two = await createTask(owner.client, project.id, 'Mild', { [prio.id]: sLow.id, [size.id]: 9 });
      const filters = {
        rules: [
          { propertyId: prio.id, op: 'is', values: [sHigh.id, sMid.id] },
          { propertyId: size.id, op: 'lt', text: '5' },
          { propertyId: props.person.id, op: 'is', values: [member.user.id, '__none__'] },
        ],
      };
      await expectStatus(owner.client.patch(`/views/${view.id}`, { filters, sort: { columnId: size.id, direction: 'desc' } }), 200);
      const titles = async () => (await expectStatus(owner.client.get(`/views/${view.id}/tasks`), 200)).tasks.map((x) => x.title);
      expect(await titles()).toEqual(['Severe']);

      // One option of the rule goes: the rule keeps the other.
      await expectStatus(owner.client.delete(`/options/${sMid.id}`), 200);
      expect((await viewOf(view.id))!.filters.rules[0]).toEqual({ propertyId: prio.id, op: 'is', values: [sHigh.id] });
      // The last option of the rule goes: the rule goes, on the board read and on the view read.
      await expectStatus(owner.client.delete(`/options/${sHigh.id}`), 200);
      const expected = { rules: [filters.rules[1], filters.rules[2]] };
      expect((await viewOf(view.id))!.filters).toEqual(expected);
      expect((await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'Cleaning' }), 200)).view.filters).toEqual(expected);
      expect((await viewOf(view.id, robo.client))!.filters).toEqual(expected);
      // Saved rules are not touched by the delete.
      const stored = await storedFilters(view.id);
      expect(stored.rules).toHaveLength(3);
      expect(stored.rules[0].values).toEqual([sHigh.id, sMid.id]);
      expect(await titles()).toEqual(['Severe']);

      // The sorted property goes: the rule about it goes and the sort reads as null.
      await expectStatus(owner.client.delete(`/properties/${size.id}`), 200);
      const after = await viewOf(view.id);
      expect(after!.filters).toEqual({ rules: [filters.rules[2]] });
      expect(after!.sort).toBeNull();
      const answer = (await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'Cleaned' }), 200)).view;
      expect(answer.filters).toEqual({ rules: [filters.rules[2]] });
      expect(answer.sort).toBeNull();
      // The read of the view's tasks follows: no rule about Size any more, the shared rank.
      const listed = await titles();
      expect(listed.indexOf('Severe')).toBeLessThan(listed.indexOf('Mild'));
      expect(listed).toEqual(expect.arrayContaining(['Severe', 'Mild']));
      expect(one.id).not.toBe(two.id);
    });

    it('a person rule naming somebody who left the project survives', async () => {
      const leaver = await registerPerson(t, 'Leo');
      await addMember(owner.client, project.id, leaver, 'member');
      const view = await createView({ name: 'Leo work', kind: 'list' });
      const filters = { rules: [{ propertyId: props.person.id, op: 'is', values: [leaver.user.id] }] };
      await expectStatus(owner.client.patch(`/views/${view.id}`, { filters }), 200);
      await expectStatus(owner.client.delete(`/projects/${project.id}/members/${leaver.user.id}`), 200);
      expect((await viewOf(view.id))!.filters).toEqual(filters);
      expect((await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'Leo work (left)' }), 200)).view.filters).toEqual(filters);
      // And may still be written.
      expect((await expectStatus(owner.client.patch(`/views/${view.id}`, { filters }), 200)).view.filters).toEqual(filters);
    });
  });
});
