import { randomUUID } from 'node:crypto';
import { OPTION_COLORS } from '@board/kernel';
import { aProject, anAgent, aTeam } from '../support/builders';
import { deleteTask } from '../support/builders-a';
import { boardOf, projectFeed, valuesOf } from '../support/builders-b';
import { exportOf, propertyOf } from '../support/builders-c';
import { anAdmin } from '../support/builders-d';
import { ChangeListener, createTask, expectError, expectStatus, insertTask, listenChanges } from '../support/fixtures';
import { addMember, Client, Person, startTestApp, TestApp } from '../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const PROPERTY_NOT_FOUND = 'Property not found.';
const NOT_A_PROPERTY_ID = 'That is not a property id.';
const WHEN_INVALID = 'A when rule names a select property of this project and some of its options.';
const DEFAULT_KEY = 'A default is keyed by an option of Type.';

describe('properties', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let agent: Client;
  let projectId: string;
  let otherProjectId: string;
  let changes: ChangeListener;

  const cardRows = async (pid = projectId) => (await boardOf(owner.client, pid)).cardView.rows;
  const propertyOrder = async (pid = projectId) => (await boardOf(owner.client, pid)).properties.map((p) => p.name);
  const propertyCount = async (pid = projectId) => (await boardOf(owner.client, pid)).properties.length;
  /** A property as kept: the export shows its config as stored, where a read fills in what is unset. */
  const keptProperty = async (id: string, pid = projectId) => (await exportOf(owner.client, pid)).properties.find((p) => p.id === id)!;
  const configOf = async (id: string, pid = projectId) => (await keptProperty(id, pid)).config;
  const viewsOf = async (pid: string) => (await boardOf(owner.client, pid)).views;
  const archive = (taskId: string) => expectStatus(owner.client.post(`/tasks/${taskId}/archive`), 200);

  /** A view made through the API; a list may carry a grouping it remembers unread. */
  async function aView(pid: string, name: string, kind: string, groupById: string | null): Promise<string> {
    return (await expectStatus(owner.client.post(`/projects/${pid}/views`, { name, kind, groupById }), 201)).view.id;
  }

  async function create(body: unknown, as: Client = owner.client, pid = projectId) {
    return (await expectStatus(as.post(`/projects/${pid}/properties`, body), 201)).property;
  }

  /** A fresh project of its own, with a member, an admin and an agent. */
  async function freshProject(name: string) {
    const { project, status } = await aProject(owner.client, { name });
    await addMember(owner.client, project.id, member);
    await addMember(owner.client, project.id, admin, 'admin');
    const robot = await anAgent(owner.client, project.id);
    await changes.take();
    return { pid: project.id, agent: robot.client, status };
  }

  beforeAll(async () => {
    t = await startTestApp();
    const team = await aTeam(t, { name: 'Properties', key: 'PRP' });
    ({ owner, member, outsider } = team);
    admin = await anAdmin(t, owner.client, team.project.id);
    agent = team.agent.client;
    projectId = team.project.id;
    otherProjectId = team.otherProject.id;
    changes = await listenChanges(t.databaseUrl);
  });
  afterAll(async () => {
    await changes.close();
    await t.close();
  });
  beforeEach(() => changes.take());

  describe('POST /api/projects/:projectId/properties', () => {
    it('creates a select with its options and answers the create shape', async () => {
      const res = await owner.client.post(`/projects/${projectId}/properties`, { name: '  Priority ', type: 'select', options: ['Low', ' ', 'High', ''] });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['property']);
      const p = res.body.property;
      expect(Object.keys(p)).toEqual(['id', 'projectId', 'name', 'type', 'position', 'config', 'options', 'createdAt']);
      expect(p).toEqual({
        id: expect.stringMatching(UUID),
        projectId,
        name: 'Priority',
        type: 'select',
        position: expect.any(String),
        config: { dated: false, defaults: {}, when: null },
        options: [
          { id: expect.stringMatching(UUID), propertyId: p.id, name: 'Low', color: OPTION_COLORS[0], position: expect.any(String) },
          { id: expect.stringMatching(UUID), propertyId: p.id, name: 'High', color: OPTION_COLORS[1], position: expect.any(String) },
        ],
        createdAt: expect.stringMatching(ISO),
      });
      expect(p.options[0].position < p.options[1].position).toBe(true);
      const stored = (await propertyOf(owner.client, projectId, p.id)).options.map((o) => ({ id: o.id, name: o.name, color: o.color }));
      expect(stored).toEqual(p.options.map((o) => ({ id: o.id, name: o.name, color: o.color })));
    });

    it('appends the property after the last one', async () => {
      const { pid } = await freshProject('Append');
      const first = await create({ name: 'First', type: 'text' }, owner.client, pid);
      const second = await create({ name: 'Second', type: 'number' }, owner.client, pid);
      expect(await propertyOrder(pid)).toEqual(['Status', 'First', 'Second']);
      expect(first.position < second.position).toBe(true);
    });

    it('cycles option colours through the twelve-colour palette', async () => {
      const names = Array.from({ length: 14 }, (_, i) => `Option ${i + 1}`);
      const p = await create({ name: 'Many', type: 'multi_select', options: names });
      expect(p.options.map((o) => o.color)).toEqual(names.map((_, i) => OPTION_COLORS[i % 12]));
      expect(OPTION_COLORS).toHaveLength(12);
      expect(OPTION_COLORS[11]).toBe('#8b8f98');
    });

    it('keeps at most 40 options, blanks not counted', async () => {
      const names = ['', ...Array.from({ length: 45 }, (_, i) => `N${i}`)];
      const p = await create({ name: 'Capped', type: 'select', options: names });
      expect(p.options.map((o) => o.name)).toEqual(names.slice(1, 41));
    });

    it('refuses option names that differ only by case or spaces and creates nothing', async () => {
      const before = await propertyCount();
      const res = await owner.client.post(`/projects/${projectId}/properties`, { name: 'Size', type: 'select', options: ['Small', ' small '] });
      expectError(res, 400, 'Size already has an option named small.');
      expect(await propertyCount()).toEqual(before);
      expect(await changes.take()).toEqual([]);
    });

    it('reads options only for select, multi_select and iteration', async () => {
      const text = await create({ name: 'Notes', type: 'text', options: ['A', 'B'] });
      expect(text.options).toEqual([]);
      expect(text.config).toEqual({ defaults: {}, when: null });
      expect((await propertyOf(owner.client, projectId, text.id)).options).toEqual([]);
    });

    it('gives iteration options the dated keys, empty', async () => {
      const p = await create({ name: 'Sprint', type: 'iteration', options: ['S1'] });
      expect(p.options).toEqual([
        { id: expect.any(String), propertyId: p.id, name: 'S1', color: OPTION_COLORS[0], position: expect.any(String), startsOn: null, targetOn: null, note: null, shippedAt: null },
      ]);
    });

    it('puts the property on every card: footer by type, a link off the card', async () => {
      const { pid } = await freshProject('Card rows');
      const made: Record<string, string> = {};
      for (const type of ['select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link']) {
        made[type] = (await create({ name: type, type }, owner.client, pid)).id;
      }
      const card = await cardRows(pid);
      expect(card[made.select]).toEqual({ place: 'footer', mode: 'colour' });
      expect(card[made.multi_select]).toEqual({ place: 'footer', mode: 'colour' });
      expect(card[made.iteration]).toEqual({ place: 'footer', mode: 'colour' });
      expect(card[made.person]).toEqual({ place: 'footer', mode: 'avatar' });
      for (const type of ['text', 'number', 'date', 'checkbox']) expect(card[made[type]]).toEqual({ place: 'footer', mode: 'text' });
      expect(card[made.link]).toEqual({ place: 'off', mode: 'text' });
      expect(card._title).toEqual({ place: 'title', mode: 'fixed' });
    });

    it('refuses a bad name or type', async () => {
      const post = (body: unknown) => owner.client.post(`/projects/${projectId}/properties`, body);
      expectError(await post({ type: 'text' }), 400, 'Name cannot be empty.');
      expectError(await post({ name: '   ', type: 'text' }), 400, 'Name cannot be empty.');
      expectError(await post({ name: 5, type: 'text' }), 400, 'Name must be text.');
      expectError(await post({ name: 'x'.repeat(41), type: 'text' }), 400, 'Name is too long (max 40 characters).');
      expectError(await post({ name: 'Stage', type: 'status' }), 400, 'That property type does not exist.');
      expectError(await post({ name: 'Stage' }), 400, 'That property type does not exist.');
      expectError(await owner.client.post(`/projects/${projectId}/properties`, undefined, { raw: '{"name":' }), 400, 'The request body must be JSON.');
    });

    it('lets any member create, agents too, and rings the board with the writer tag', async () => {
      expect((await create({ name: 'By member', type: 'text' }, member.client)).name).toBe('By member');
      await changes.take();
      const res = await agent.post(`/projects/${projectId}/properties`, { name: 'By agent', type: 'checkbox' }, { headers: { 'x-service-client': 'tab-7' } });
      expect(res.status).toBe(201);
      expect(await changes.take()).toEqual([{ projectId, scope: 'board', clientId: 'tab-7' }]);
    });

    it('answers 404 to a non-member and 400 to a bad project id', async () => {
      expectError(await outsider.client.post(`/projects/${projectId}/properties`, { name: 'X', type: 'text' }), 404, 'Project not found.');
      expectError(await owner.client.post(`/projects/nope/properties`, { name: 'X', type: 'text' }), 400, 'That is not a project id.');
    });
  });

  describe('PATCH /api/properties/:propertyId', () => {
    it('renames, rings once, and a second identical rename rings nothing', async () => {
      const p = await create({ name: 'Old name', type: 'text' });
      await changes.take();
      const res = await member.client.patch(`/properties/${p.id}`, { name: '  New name ' }, { headers: { 'x-service-client': 'c1' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await propertyOf(owner.client, projectId, p.id)).name).toBe('New name');
      expect(await changes.take()).toEqual([{ projectId, scope: 'board', clientId: 'c1' }]);
      expect((await member.client.patch(`/properties/${p.id}`, { name: 'New name' })).body).toEqual({ ok: true });
      expect(await changes.take()).toEqual([]);
    });

    it('answers 200 and rings nothing for a body with nothing recognisable', async () => {
      const p = await create({ name: 'Quiet', type: 'text' });
      await changes.take();
      for (const body of [{}, { colour: 'red' }, undefined]) {
        const res = await owner.client.patch(`/properties/${p.id}`, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ok: true });
      }
      expect(await changes.take()).toEqual([]);
    });

    it('refuses a bad name', async () => {
      const p = await create({ name: 'Named', type: 'text' });
      expectError(await owner.client.patch(`/properties/${p.id}`, { name: '' }), 400, 'Name cannot be empty.');
      expectError(await owner.client.patch(`/properties/${p.id}`, { name: null }), 400, 'Name cannot be empty.');
      expectError(await owner.client.patch(`/properties/${p.id}`, { name: 'y'.repeat(41) }), 400, 'Name is too long (max 40 characters).');
    });

    describe('showOnCard', () => {
      it('puts the property off the card and back where its type belongs', async () => {
        const p = await create({ name: 'Who', type: 'person' });
        await changes.take();
        expect((await member.client.patch(`/properties/${p.id}`, { showOnCard: false })).status).toBe(200);
        expect((await cardRows())[p.id]).toEqual({ place: 'off', mode: 'avatar' });
        expect(await changes.take()).toHaveLength(1);
        await member.client.patch(`/properties/${p.id}`, { showOnCard: false });
        expect(await changes.take()).toEqual([]);
        await member.client.patch(`/properties/${p.id}`, { showOnCard: true });
        expect((await cardRows())[p.id]).toEqual({ place: 'footer', mode: 'avatar' });
        const link = await create({ name: 'Links', type: 'link' });
        await agent.patch(`/properties/${link.id}`, { showOnCard: true });
        expect((await cardRows())[link.id]).toEqual({ place: 'footer', mode: 'text' });
      });

      it('refuses anything but a boolean', async () => {
        const p = await create({ name: 'Shown', type: 'text' });
        for (const showOnCard of ['true', 1, null]) {
          expectError(await owner.client.patch(`/properties/${p.id}`, { showOnCard }), 400, 'ShowOnCard is true or false.');
        }
      });
    });

    describe('dated', () => {
      it('makes a select dated for the owner or an admin, and its options then carry the dated keys', async () => {
        const p = await create({ name: 'Release', type: 'select', options: ['v1'] });
        await changes.take();
        expect((await admin.client.patch(`/properties/${p.id}`, { dated: true })).status).toBe(200);
        expect((await configOf(p.id)).dated).toBe(true);
        expect(await changes.take()).toHaveLength(1);
        const option = (await owner.client.post(`/properties/${p.id}/options`, { name: 'v2', targetOn: '2025-03-01' })).body.option;
        expect(option).toMatchObject({ name: 'v2', startsOn: null, targetOn: '2025-03-01', note: null, shippedAt: null });
        await owner.client.patch(`/properties/${p.id}`, { dated: true });
        expect(await changes.take()).toHaveLength(1); // the option create only
        await owner.client.patch(`/properties/${p.id}`, { dated: false });
        expect((await configOf(p.id)).dated).toBe(false);
        expect(await changes.take()).toHaveLength(1);
      });

      it('refuses a member and a token with 403, and any type but select with 400', async () => {
        const p = await create({ name: 'Milestone', type: 'select' });
        expectError(await member.client.patch(`/properties/${p.id}`, { dated: true }), 403, 'Only the owner or an admin can change dated properties.');
        expectError(await agent.patch(`/properties/${p.id}`, { dated: true }), 403, 'Only a person can do this.');
        for (const type of ['multi_select', 'iteration', 'text']) {
          const other = await create({ name: `Not dated ${type}`, type });
          expectError(await owner.client.patch(`/properties/${other.id}`, { dated: true }), 400, 'Only a select property can be dated.');
        }
        expectError(await owner.client.patch(`/properties/${p.id}`, { dated: 'yes' }), 400, 'Dated is true or false.');
        expect((await configOf(p.id)).dated).toBeUndefined();
      });
    });

    describe('defaults', () => {
      let pid: string;
      let typeId: string;
      let bug: string;
      let feature: string;
      let robot: Client;

      beforeAll(async () => {
        ({ pid, agent: robot } = await freshProject('Defaults'));
        const type = await create({ name: ' type ', type: 'select', options: ['Bug', 'Feature'] }, owner.client, pid);
        typeId = type.id;
        [bug, feature] = type.options.map((o) => o.id);
      });

      it('merges each Type key alone; null clears one', async () => {
        const priority = await create({ name: 'Priority', type: 'select', options: ['Low', 'High'] }, owner.client, pid);
        const [low, high] = priority.options.map((o) => o.id);
        await changes.take();
        expect((await admin.client.patch(`/properties/${priority.id}`, { defaults: { [bug]: high } })).status).toBe(200);
        expect(await changes.take()).toHaveLength(1);
        await owner.client.patch(`/properties/${priority.id}`, { defaults: { [feature.toUpperCase()]: low.toUpperCase() } });
        expect((await configOf(priority.id, pid)).defaults).toEqual({ [bug]: high, [feature]: low });
        await owner.client.patch(`/properties/${priority.id}`, { defaults: { [bug]: null } });
        expect((await configOf(priority.id, pid)).defaults).toEqual({ [feature]: low });
        await changes.take();
        await owner.client.patch(`/properties/${priority.id}`, { defaults: { [feature]: low } });
        expect(await changes.take()).toEqual([]);
      });

      it('stores each type in its own shape', async () => {
        const size = await create({ name: 'Size', type: 'number' }, owner.client, pid);
        const labels = await create({ name: 'Labels', type: 'multi_select', options: ['ui', 'api'] }, owner.client, pid);
        const urgent = await create({ name: 'Urgent', type: 'checkbox' }, owner.client, pid);
        const notes = await create({ name: 'Notes', type: 'text' }, owner.client, pid);
        const [ui, api] = labels.options.map((o) => o.id);
        await owner.client.patch(`/properties/${size.id}`, { defaults: { [bug]: '3' } });
        await owner.client.patch(`/properties/${labels.id}`, { defaults: { [bug]: [api, ui, api, 7] } });
        await owner.client.patch(`/properties/${urgent.id}`, { defaults: { [bug]: 'true', [feature]: false } });
        await owner.client.patch(`/properties/${notes.id}`, { defaults: { [bug]: ' look here ' } });
        expect((await configOf(size.id, pid)).defaults).toEqual({ [bug]: 3 });
        expect((await configOf(labels.id, pid)).defaults).toEqual({ [bug]: [api, ui] });
        expect((await configOf(urgent.id, pid)).defaults).toEqual({ [bug]: true, [feature]: false });
        expect((await configOf(notes.id, pid)).defaults).toEqual({ [bug]: ' look here ' });
      });

      it('refuses a member and a token', async () => {
        const size = await create({ name: 'Points', type: 'number' }, owner.client, pid);
        expectError(await member.client.patch(`/properties/${size.id}`, { defaults: { [bug]: 1 } }), 403, 'Only the owner or an admin can change defaults.');
        expectError(await robot.patch(`/properties/${size.id}`, { defaults: { [bug]: 1 } }), 403, 'Only a person can do this.');
      });

      it('refuses a property that cannot carry a default, a key that is not a type, and a value that would not read back', async () => {
        for (const type of ['person', 'date', 'link', 'iteration']) {
          const p = await create({ name: `No ${type}`, type }, owner.client, pid);
          expectError(await owner.client.patch(`/properties/${p.id}`, { defaults: { [bug]: null } }), 400, `No ${type} cannot carry a default.`);
        }
        const priority = await create({ name: 'Urgency', type: 'select', options: ['Now'] }, owner.client, pid);
        const size = await create({ name: 'Effort', type: 'number' }, owner.client, pid);
        expectError(await owner.client.patch(`/properties/${priority.id}`, { defaults: { [priority.options[0].id]: priority.options[0].id } }), 400, DEFAULT_KEY);
        expectError(await owner.client.patch(`/properties/${priority.id}`, { defaults: { nope: null } }), 400, DEFAULT_KEY);
        expectError(await owner.client.patch(`/properties/${priority.id}`, { defaults: [] }), 400, DEFAULT_KEY);
        expectError(await owner.client.patch(`/properties/${priority.id}`, { defaults: { [bug]: randomUUID() } }), 400, 'One of the options does not exist any more.');
        expectError(await owner.client.patch(`/properties/${priority.id}`, { defaults: { [bug]: 5 } }), 400, 'Urgency needs one option.');
        expectError(await owner.client.patch(`/properties/${size.id}`, { defaults: { [bug]: 'big' } }), 400, 'Effort needs a number.');
        // One bad key refuses the whole body: nothing was written.
        expectError(await owner.client.patch(`/properties/${size.id}`, { name: 'Renamed', defaults: { [bug]: 2, nope: 1 } }), 400, DEFAULT_KEY);
        const { name, config } = await keptProperty(size.id, pid);
        expect({ name, config }).toEqual({ name: 'Effort', config: {} });
      });

      it('refuses every key in a project without a Type', async () => {
        const { pid: bare } = await freshProject('No type');
        const size = await create({ name: 'Size', type: 'number' }, owner.client, bare);
        expectError(await owner.client.patch(`/properties/${size.id}`, { defaults: { [bug]: 1 } }), 400, DEFAULT_KEY);
      });

      it('reads defaults afresh: a deleted type, a deleted value option, or no Type read as no default', async () => {
        const { pid: p2 } = await freshProject('Afresh');
        const type = await create({ name: 'Type', type: 'select', options: ['Bug', 'Chore', 'Idea'] }, owner.client, p2);
        const [tBug, tChore, tIdea] = type.options.map((o) => o.id);
        const priority = await create({ name: 'Priority', type: 'select', options: ['Low', 'High'] }, owner.client, p2);
        const [low, high] = priority.options.map((o) => o.id);
        const size = await create({ name: 'Size', type: 'number' }, owner.client, p2);
        await owner.client.patch(`/properties/${priority.id}`, { defaults: { [tBug]: high, [tChore]: low, [tIdea]: low } });
        await owner.client.patch(`/properties/${size.id}`, { defaults: { [tBug]: 5 } });
        const read = async () => Object.fromEntries((await boardOf(owner.client, p2)).properties.map((p) => [p.name, p.config.defaults]));
        expect((await read()).Priority).toEqual({ [tBug]: high, [tChore]: low, [tIdea]: low });
        expect((await owner.client.delete(`/options/${tChore}`)).status).toBe(200);
        expect((await owner.client.delete(`/options/${low}`)).status).toBe(200);
        expect((await read()).Priority).toEqual({ [tBug]: high });
        expect((await read()).Size).toEqual({ [tBug]: 5 });
        await owner.client.patch(`/properties/${type.id}`, { name: 'Kind' });
        expect(await read()).toMatchObject({ Priority: {}, Size: {} });
        await owner.client.patch(`/properties/${type.id}`, { name: 'TYPE' });
        expect((await read()).Size).toEqual({ [tBug]: 5 });
      });
    });

    describe('when', () => {
      it('stores a rule naming a select and its options, any member, agents too; deletes no value', async () => {
        const { pid, agent: robot } = await freshProject('When');
        const kind = await create({ name: 'Kind', type: 'select', options: ['Bug', 'Task'] }, owner.client, pid);
        const [bug, task] = kind.options.map((o) => o.id);
        const steps = await create({ name: 'Steps', type: 'text' }, owner.client, pid);
        const taskId = (await createTask(owner.client, pid, 'Task', { [kind.id]: task, [steps.id]: 'click twice' })).id;
        await changes.take();
        expect((await robot.patch(`/properties/${steps.id}`, { when: { propertyId: kind.id, optionIds: [bug, bug.toUpperCase()] } })).body).toEqual({ ok: true });
        expect((await configOf(steps.id, pid)).when).toEqual({ propertyId: kind.id, optionIds: [bug] });
        expect(await valuesOf(owner.client, taskId)).toEqual({ [kind.id]: task, [steps.id]: 'click twice' });
        expect(await changes.take()).toHaveLength(1);
        await member.client.patch(`/properties/${steps.id}`, { when: { propertyId: kind.id, optionIds: [bug] } });
        expect(await changes.take()).toEqual([]);
        await member.client.patch(`/properties/${steps.id}`, { when: null });
        expect((await configOf(steps.id, pid)).when).toBeUndefined();
        expect(await changes.take()).toHaveLength(1);
      });

      it('refuses a rule that does not name a select of the project and its options', async () => {
        const kind = await create({ name: 'Category', type: 'select', options: ['A'] });
        const multi = await create({ name: 'Tags', type: 'multi_select', options: ['t'] });
        const target = await create({ name: 'Details', type: 'text' });
        const elsewhere = await create({ name: 'Foreign', type: 'select', options: ['F'] }, outsider.client, otherProjectId);
        const a = kind.options[0].id;
        const bad = [
          { propertyId: multi.id, optionIds: [multi.options[0].id] },
          { propertyId: kind.id, optionIds: [] },
          { propertyId: kind.id, optionIds: [multi.options[0].id] },
          { propertyId: kind.id },
          { propertyId: elsewhere.id, optionIds: [elsewhere.options[0].id] },
          { propertyId: randomUUID(), optionIds: [a] },
          'Category',
        ];
        for (const when of bad) expectError(await member.client.patch(`/properties/${target.id}`, { when }), 400, WHEN_INVALID);
        expectError(await member.client.patch(`/properties/${kind.id}`, { when: { propertyId: kind.id, optionIds: [a] } }), 400, WHEN_INVALID);
        expectError(await member.client.patch(`/properties/${target.id}`, { when: { propertyId: 'x', optionIds: [a] } }), 400, NOT_A_PROPERTY_ID);
      });
    });

    describe('afterId', () => {
      it('moves after a property; null or an unknown id means the front', async () => {
        const { pid, status: statusProp } = await freshProject('Order');
        const a = await create({ name: 'A', type: 'text' }, owner.client, pid);
        const b = await create({ name: 'B', type: 'text' }, owner.client, pid);
        const status = statusProp.id;
        expect(await propertyOrder(pid)).toEqual(['Status', 'A', 'B']);
        await changes.take();
        await member.client.patch(`/properties/${status}`, { afterId: b.id });
        expect(await propertyOrder(pid)).toEqual(['A', 'B', 'Status']);
        expect(await changes.take()).toHaveLength(1);
        await member.client.patch(`/properties/${status}`, { afterId: null });
        expect(await propertyOrder(pid)).toEqual(['Status', 'A', 'B']);
        await member.client.patch(`/properties/${b.id}`, { afterId: randomUUID() });
        expect(await propertyOrder(pid)).toEqual(['B', 'Status', 'A']);
        await changes.take();
        await member.client.patch(`/properties/${b.id}`, { afterId: null });
        await member.client.patch(`/properties/${a.id}`, { afterId: status });
        expect(await changes.take()).toEqual([]);
        await member.client.patch(`/properties/${a.id}`, { afterId: b.id.toUpperCase() });
        expect(await propertyOrder(pid)).toEqual(['B', 'A', 'Status']);
        expectError(await member.client.patch(`/properties/${a.id}`, { afterId: 'first' }), 400, NOT_A_PROPERTY_ID);
      });
    });

    it("refuses in the contract's order: name and showOnCard first, then each gate and stored check before the shape it guards", async () => {
      const p = await create({ name: 'Ordered', type: 'select', options: ['a'] });
      const text = await create({ name: 'Ordered text', type: 'text' });
      const patch = (id: string, body: Record<string, unknown>, as: Client = owner.client) => as.patch(`/properties/${id}`, body);
      expectError(await patch(p.id, { name: '', dated: 'x' }, member.client), 400, 'Name cannot be empty.');
      expectError(await patch(p.id, { dated: 'x', afterId: 'nope' }, member.client), 403, 'Only the owner or an admin can change dated properties.');
      expectError(await patch(text.id, { dated: 'x' }), 400, 'Only a select property can be dated.');
      expectError(await patch(p.id, { dated: 'x', when: 'junk', afterId: 'nope' }), 400, 'Dated is true or false.');
      expectError(await patch(text.id, { defaults: 'junk', when: 'junk' }), 400, DEFAULT_KEY);
      // The select a when rule names is looked up before its options' ids are read.
      expectError(await patch(text.id, { when: { propertyId: randomUUID(), optionIds: ['nope'] } }), 400, WHEN_INVALID);
      expectError(await patch(text.id, { when: 'junk', afterId: 'nope' }), 400, WHEN_INVALID);
      expectError(await patch(text.id, { afterId: 'nope' }), 400, NOT_A_PROPERTY_ID);
      expect((await configOf(p.id)).dated).toBeUndefined();
    });

    it('answers 400 for a bad id, 404 for an unknown or foreign property and for a non-member', async () => {
      const p = await create({ name: 'Guarded', type: 'text' });
      const foreign = await create({ name: 'Theirs', type: 'text' }, outsider.client, otherProjectId);
      expectError(await owner.client.patch(`/properties/nope`, { name: 'x' }), 400, NOT_A_PROPERTY_ID);
      expectError(await owner.client.patch(`/properties/${randomUUID()}`, { name: 'x' }), 404, PROPERTY_NOT_FOUND);
      expectError(await owner.client.patch(`/properties/${foreign.id}`, { name: 'x' }), 404, PROPERTY_NOT_FOUND);
      expectError(await outsider.client.patch(`/properties/${p.id}`, { name: 'x' }), 404, PROPERTY_NOT_FOUND);
    });
  });

  describe('DELETE /api/properties/:propertyId', () => {
    it('is for the owner and admins as persons', async () => {
      const p = await create({ name: 'Keep me', type: 'text' });
      expectError(await member.client.delete(`/properties/${p.id}`), 403, 'Only the owner or an admin can delete properties.');
      // The person gate comes first (issue 13): an agent is told it is not a person.
      expectError(await agent.delete(`/properties/${p.id}`), 403, 'Only a person can do this.');
      expectError(await outsider.client.delete(`/properties/${p.id}`), 404, PROPERTY_NOT_FOUND);
      expectError(await owner.client.delete(`/properties/nope`), 400, NOT_A_PROPERTY_ID);
      expect((await propertyOf(owner.client, projectId, p.id)).name).toBe('Keep me');
      expect((await admin.client.delete(`/properties/${p.id}`)).body).toEqual({ ok: true });
      expectError(await owner.client.delete(`/properties/${p.id}`), 404, PROPERTY_NOT_FOUND);
    });

    it('removes its options, every value, its card row, and rings the board', async () => {
      const p = await create({ name: 'Doomed', type: 'multi_select', options: ['x', 'y'] });
      const keep = await create({ name: 'Stays', type: 'text' });
      const live = (await createTask(owner.client, projectId, 'Live', { [p.id]: [p.options[0].id], [keep.id]: 'hello' })).id;
      const archived = (await createTask(owner.client, projectId, 'Archived', { [p.id]: [p.options[1].id] })).id;
      await archive(archived);
      const deleted = (await createTask(owner.client, projectId, 'Deleted', { [p.id]: [p.options[1].id] })).id;
      await deleteTask(owner.client, deleted);
      const viewId = await aView(projectId, 'Custom card', 'list', null);
      await expectStatus(owner.client.patch(`/views/${viewId}/card-view`, { rows: { [p.id]: { place: 'headerR', mode: 'colour' } } }), 200);
      expect((await cardRows())[p.id]).toBeDefined();
      const feedBefore = (await projectFeed(owner.client, projectId)).length;
      await changes.take();
      const res = await owner.client.delete(`/properties/${p.id}`, undefined, { headers: { 'x-service-client': 'tab-d' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await changes.take()).toEqual([{ projectId, scope: 'board', clientId: 'tab-d' }]);
      // The export shows the project as it is kept: options go with their property, the deleted task
      // keeps no value, and the card views lose the row (every read leaves out the rows of gone properties anyway).
      const kept = await exportOf(owner.client, projectId);
      expect(kept.properties.some((x) => x.id === p.id)).toBe(false);
      expect(kept.properties.flatMap((x) => x.options).filter((o) => p.options.some((mine) => mine.id === o.id))).toEqual([]);
      expect(await valuesOf(owner.client, live)).toEqual({ [keep.id]: 'hello' });
      expect(await valuesOf(owner.client, archived)).toEqual({});
      expect(kept.tasks.find((x) => x.id === deleted)!.values).toEqual({});
      expect(kept.cardView.rows![p.id]).toBeUndefined();
      expect((await cardRows())[keep.id]).toBeDefined();
      expect(kept.views.find((v) => v.id === viewId)!.cardView).toEqual({ rows: {} });
      expect((await projectFeed(owner.client, projectId)).length).toBe(feedBefore);
    });

    it('is refused while a board groups by it; lists and roadmaps forget their grouping', async () => {
      const { pid, status } = await freshProject('Grouped');
      const p = await create({ name: 'Stage', type: 'select', options: ['One'] }, owner.client, pid);
      const list = await aView(pid, 'Flat list', 'list', p.id);
      const roadmap = await aView(pid, 'Roadmap', 'roadmap', p.id);
      const first = await aView(pid, 'Stage board', 'board', p.id);
      await changes.take();
      expectError(await owner.client.delete(`/properties/${p.id}`), 400, 'The view "Stage board" groups by this property. Point it at another property first.');
      const second = await aView(pid, 'Second board', 'board', p.id);
      await changes.take();
      expectError(
        await owner.client.delete(`/properties/${p.id}`),
        400,
        'These views group by this property: "Stage board", "Second board". Point them at another property first.',
      );
      expect(await changes.take()).toEqual([]);
      expect((await viewsOf(pid)).find((v) => v.id === list)!.groupById).toBe(p.id);
      for (const board of [first, second]) await expectStatus(owner.client.patch(`/views/${board}`, { groupById: status.id }), 200);
      expect((await owner.client.delete(`/properties/${p.id}`)).status).toBe(200);
      // A read shows a gone grouping as null anyway: the export shows the groupings as kept.
      const kept = (await exportOf(owner.client, pid)).views;
      expect([list, roadmap].map((id) => kept.find((v) => v.id === id)!.groupById)).toEqual([null, null]);
      expect((await viewsOf(pid)).find((v) => v.id === first)!.name).toBe('Stage board');
    });

    it('clears doneWhen when it names the property', async () => {
      const { pid, status: statusProp } = await freshProject('Done when');
      const status = statusProp.id;
      expect((await boardOf(owner.client, pid)).project.doneWhen!.propertyId).toBe(status);
      expectError(await owner.client.delete(`/properties/${status}`), 400, 'The view "Board" groups by this property. Point it at another property first.');
      const other = await create({ name: 'Lane', type: 'select', options: ['L'] }, owner.client, pid);
      const views = await viewsOf(pid);
      expect(views.map((v) => v.name)).toEqual(['Board']);
      await expectStatus(owner.client.patch(`/views/${views[0].id}`, { groupById: other.id }), 200);
      expect((await owner.client.delete(`/properties/${other.id}`)).status).toBe(400);
      await expectStatus(owner.client.patch(`/views/${views[0].id}`, { kind: 'list', groupById: null }), 200);
      expect((await owner.client.delete(`/properties/${status}`)).status).toBe(200);
      // The board reads a doneWhen naming a gone property as null anyway: the export shows it as kept.
      expect((await exportOf(owner.client, pid)).project.doneWhen).toBeNull();
    });
  });

  describe('GET /api/properties/:propertyId/count', () => {
    it('counts tasks holding a real value, archived included, deleted and empty not', async () => {
      const { pid, agent: robot } = await freshProject('Counting');
      const text = await create({ name: 'Words', type: 'text' }, owner.client, pid);
      const check = await create({ name: 'Ticked', type: 'checkbox' }, owner.client, pid);
      await createTask(owner.client, pid, 'A', { [text.id]: 'a', [check.id]: false });
      await archive((await createTask(owner.client, pid, 'B', { [text.id]: 'b' })).id);
      await deleteTask(owner.client, (await createTask(owner.client, pid, 'C', { [text.id]: 'c' })).id);
      await createTask(owner.client, pid, 'Nothing');
      // Storage itself: values no write stores (empty ones, a list on a text, a property of another project) must not count.
      for (const [i, value] of ['', null, []].entries()) await insertTask(t, pid, { number: 1000 + i, values: { [text.id]: value } });
      await insertTask(t, projectId, { number: 1000, values: { [text.id]: 'other project' } });
      const res = await member.client.get(`/properties/${text.id}/count`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ values: 2 });
      expect((await robot.get(`/properties/${check.id}/count`)).body).toEqual({ values: 1 });
      expectError(await outsider.client.get(`/properties/${text.id}/count`), 404, PROPERTY_NOT_FOUND);
      expectError(await owner.client.get(`/properties/x/count`), 400, NOT_A_PROPERTY_ID);
    });
  });
});
