import { randomUUID } from 'node:crypto';
import { createProperty, expectStatus } from '../support/fixtures';
import { Agent, aTeam } from '../support/builders';
import { anAdmin } from '../support/builders-d';
import { Client, Person, startTestApp, TestApp } from '../support/test-app';
import type { ProjectAnswer } from '../support/answers';

/** The card view: the project's, a view's own, and showOnCard on a property. */

type Rows = Record<string, { place: string; mode?: string }>;
/** The keys of the rows in one place, in the order the answer lists them. */
const inPlace = (rows: Rows, place: string): string[] => Object.keys(rows).filter((k) => rows[k].place === place);

const PLACE_ERROR = 'A place is headerL, headerR, title, footer or off.';
const MODE_ERROR = 'A mode is colour, fixed, text or avatar.';
const KEY_ERROR = 'Card rows are keyed by a property of this project or _title.';
const GATE_ERROR = 'Only the owner or an admin can change the card view.';

describe('card view', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let robo: Agent;
  let project: ProjectAnswer;
  let statusId: string;
  let mainViewId: string;
  const p: Record<string, string> = {};
  let foreign: string;

  const board = async (c: Client = owner.client) => expectStatus(c.get(`/projects/${project.id}/board`), 200);
  const projectRows = async (): Promise<Rows> => (await board()).cardView.rows;
  const patchProject = (rows: unknown, c: Client = owner.client) => c.patch(`/projects/${project.id}/card-view`, { rows });
  // Storage itself: what is kept, not the rows the board reads merged with the defaults.
  const storedProject = async () => (await t.sql.query('SELECT card_view FROM projects WHERE id = $1', [project.id])).rows[0].card_view;

  beforeAll(async () => {
    t = await startTestApp();
    // Property order: Status, Priority, Owner, Points, Tags, Links, Notes.
    const team = await aTeam(t, {
      name: 'Cards',
      key: 'CD',
      properties: { Priority: ['select', ['High', 'Low']], Owner: ['person'], Points: ['number'], Tags: ['multi_select', ['a']], Links: ['link'], Notes: ['text'] },
    });
    ({ owner, member, outsider, project, agent: robo } = team);
    admin = await anAdmin(t, owner.client, project.id, 'Ada');
    statusId = team.status.id;
    mainViewId = (await board()).views[0].id;
    const { Priority, Owner, Points, Tags, Links, Notes } = team.props;
    Object.assign(p, { priority: Priority.id, owner: Owner.id, points: Points.id, tags: Tags.id, links: Links.id, notes: Notes.id });
    foreign = (await createProperty(outsider.client, team.otherProject.id, 'Foreign', 'text')).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('the project\'s card view', () => {
    it('starts with the title, Status in the left header, new properties in the footer and links off', async () => {
      const rows = await projectRows();
      expect(rows).toEqual({
        _title: { place: 'title', mode: 'fixed' },
        [statusId]: { place: 'headerL', mode: 'colour' },
        [p.priority]: { place: 'footer', mode: 'colour' },
        [p.owner]: { place: 'footer', mode: 'avatar' },
        [p.points]: { place: 'footer', mode: 'text' },
        [p.tags]: { place: 'footer', mode: 'colour' },
        [p.links]: { place: 'off', mode: 'text' },
        [p.notes]: { place: 'footer', mode: 'text' },
      });
      // Wordless rows first, then the order of properties.
      expect(inPlace(rows, 'footer')).toEqual([p.priority, p.owner, p.tags, p.points, p.notes]);
    });

    it('PATCH merges rows and answers { cardView } as the board reads it', async () => {
      const before = await projectRows();
      const res = await patchProject({ [p.points]: { place: 'headerR', mode: 'text' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['cardView']);
      expect(res.body.cardView.rows).toEqual({ ...before, [p.points]: { place: 'headerR', mode: 'text' } });
      expect(await projectRows()).toEqual(res.body.cardView.rows);
      expect(Object.keys(await projectRows())).toEqual(Object.keys(res.body.cardView.rows));
      expect((await storedProject()).rows[p.points]).toEqual({ place: 'headerR', mode: 'text' });
      // Every place and mode is accepted.
      for (const place of ['headerL', 'headerR', 'title', 'footer', 'off']) {
        for (const mode of ['colour', 'fixed', 'text', 'avatar']) {
          const r = await patchProject({ [p.notes]: { place, mode } });
          expect(r.status).toBe(200);
          expect(r.body.cardView.rows[p.notes]).toEqual({ place, mode });
        }
      }
      await expectStatus(patchProject({ [p.notes]: { place: 'footer', mode: 'text' }, [p.points]: { place: 'footer', mode: 'text' } }), 200);
    });

    it('rows in a shared place list the wordless rows first, then follow the order of properties', async () => {
      // Sent in a scrambled order; Notes (last property) is wordless, Points (earlier) has words.
      const res = await patchProject({
        [p.points]: { place: 'headerR', mode: 'text' },
        [p.notes]: { place: 'headerR', mode: 'colour' },
        [p.owner]: { place: 'headerR', mode: 'avatar' },
        [p.tags]: { place: 'headerR', mode: 'fixed' },
      });
      expect(res.status).toBe(200);
      expect(inPlace(res.body.cardView.rows, 'headerR')).toEqual([p.owner, p.notes, p.points, p.tags]);
      const rows = await projectRows();
      expect(inPlace(rows, 'headerR')).toEqual([p.owner, p.notes, p.points, p.tags]);
      expect(inPlace(rows, 'footer')).toEqual([p.priority]);
      // Moving a property later in the property order changes the order of its place.
      await expectStatus(owner.client.patch(`/properties/${p.notes}`, { afterId: null }), 200);
      await expectStatus(owner.client.patch(`/properties/${p.tags}`, { afterId: null }), 200);
      // Now: Tags, Notes, Status, Priority, Owner, Points, Links.
      expect(inPlace(await projectRows(), 'headerR')).toEqual([p.notes, p.owner, p.tags, p.points]);
      // Put things back.
      await expectStatus(owner.client.patch(`/properties/${p.tags}`, { afterId: p.points }), 200);
      await expectStatus(owner.client.patch(`/properties/${p.notes}`, { afterId: p.links }), 200);
      await expectStatus(patchProject({
        [p.points]: { place: 'footer', mode: 'text' },
        [p.notes]: { place: 'footer', mode: 'text' },
        [p.owner]: { place: 'footer', mode: 'avatar' },
        [p.tags]: { place: 'footer', mode: 'colour' },
      }), 200);
      expect(inPlace(await projectRows(), 'footer')).toEqual([p.priority, p.owner, p.tags, p.points, p.notes]);
    });

    it('accepts _title and property ids in upper case', async () => {
      const res = await patchProject({ [p.priority.toUpperCase()]: { place: 'title', mode: 'colour' }, _title: { place: 'title', mode: 'text' } });
      expect(res.status).toBe(200);
      expect(res.body.cardView.rows[p.priority]).toEqual({ place: 'title', mode: 'colour' });
      expect(res.body.cardView.rows._title).toEqual({ place: 'title', mode: 'text' });
      expect(res.body.cardView.rows[p.priority.toUpperCase()]).toBeUndefined();
      expect(inPlace(res.body.cardView.rows, 'title')).toEqual([p.priority, '_title']);
      await expectStatus(patchProject({ [p.priority]: { place: 'footer', mode: 'colour' }, _title: { place: 'title', mode: 'fixed' } }), 200);
    });

    it('refuses other places, modes and keys, and writes nothing', async () => {
      const before = await storedProject();
      const cases: [unknown, string][] = [
        [{ [p.points]: { place: 'middle', mode: 'text' } }, PLACE_ERROR],
        [{ [p.points]: { place: 'Footer', mode: 'text' } }, PLACE_ERROR],
        [{ [p.points]: { mode: 'text' } }, PLACE_ERROR],
        [{ [p.points]: { place: 'footer', mode: 'bold' } }, MODE_ERROR],
        [{ [p.points]: { place: 'footer' } }, MODE_ERROR],
        [{ [p.points]: { place: 'footer', mode: 'color' } }, MODE_ERROR],
        [{ [randomUUID()]: { place: 'footer', mode: 'text' } }, KEY_ERROR],
        [{ [foreign]: { place: 'footer', mode: 'text' } }, KEY_ERROR],
        [{ status: { place: 'footer', mode: 'text' } }, KEY_ERROR],
        [{ _key: { place: 'footer', mode: 'text' } }, KEY_ERROR],
        // One good row and one bad: nothing of it is written.
        [{ [p.points]: { place: 'headerL', mode: 'text' }, [p.notes]: { place: 'nowhere', mode: 'text' } }, PLACE_ERROR],
      ];
      for (const [rows, error] of cases) {
        const res = await patchProject(rows);
        expect([res.status, res.body]).toEqual([400, { error }]);
      }
      for (const rows of [undefined, null, [], 'rows', { [p.points]: 'footer' }]) {
        const res = await patchProject(rows);
        expect(res.status).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      expect(await storedProject()).toEqual(before);
    });

    it('is for the owner and admins', async () => {
      let res = await patchProject({ [p.points]: { place: 'off', mode: 'text' } }, member.client);
      expect([res.status, res.body]).toEqual([403, { error: GATE_ERROR }]);
      res = await patchProject({ [p.points]: { place: 'off', mode: 'text' } }, robo.client);
      expect(res.status).toBe(403);
      res = await patchProject({ [p.points]: { place: 'off', mode: 'text' } }, outsider.client);
      expect([res.status, res.body]).toEqual([404, { error: 'Project not found.' }]);
      expect((await projectRows())[p.points]).toEqual({ place: 'footer', mode: 'text' });
      res = await patchProject({ [p.points]: { place: 'off', mode: 'text' } }, admin.client);
      expect(res.status).toBe(200);
      expect((await projectRows())[p.points]).toEqual({ place: 'off', mode: 'text' });
      await expectStatus(patchProject({ [p.points]: { place: 'footer', mode: 'text' } }), 200);
    });
  });

  describe('a view\'s own card view', () => {
    let viewId: string;
    const viewRows = async (id: string, c: Client = owner.client) => (await board(c)).views.find((v) => v.id === id)!.cardView;
    const patchView = (id: string, rows: unknown, c: Client = owner.client) => c.patch(`/views/${id}/card-view`, { rows });

    beforeEach(async () => {
      viewId = (await expectStatus(owner.client.post(`/projects/${project.id}/views`, { name: `Cards ${randomUUID().slice(0, 4)}`, kind: 'list' }), 201)).view.id;
    });

    it('sets the view\'s own over the project\'s; the project\'s stays', async () => {
      const project0 = await projectRows();
      expect(await viewRows(viewId)).toBeNull();
      const res = await patchView(viewId, { [p.priority]: { place: 'headerR', mode: 'colour' }, [p.links]: { place: 'footer', mode: 'text' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['cardView']);
      const expected = { ...project0, [p.priority]: { place: 'headerR', mode: 'colour' }, [p.links]: { place: 'footer', mode: 'text' } };
      expect(res.body.cardView!.rows).toEqual(expected);
      expect(inPlace(res.body.cardView!.rows, 'footer')).toEqual([p.owner, p.tags, p.points, p.links, p.notes]);
      const seen = await viewRows(viewId);
      expect(seen).toEqual({ rows: expected });
      expect(Object.keys(seen!.rows)).toEqual(Object.keys(res.body.cardView!.rows));
      expect(await projectRows()).toEqual(project0);
      // A second patch merges over the view's own.
      const again = await patchView(viewId, { [p.notes]: { place: 'off', mode: 'text' } });
      expect(again.body.cardView!.rows).toEqual({ ...expected, [p.notes]: { place: 'off', mode: 'text' } });
      expect((await viewRows(viewId))!.rows[p.priority]).toEqual({ place: 'headerR', mode: 'colour' });
      // Other views still follow the project's.
      expect(await viewRows(mainViewId)).toBeNull();
    });

    it('keeps only its own rows: a property added later joins the view\'s cards too', async () => {
      await patchView(viewId, { [p.priority]: { place: 'headerR', mode: 'colour' } });
      const added = await expectStatus(owner.client.post(`/projects/${project.id}/properties`, { name: `Late ${randomUUID().slice(0, 4)}`, type: 'number' }), 201);
      const rows = (await viewRows(viewId))!.rows;
      expect(rows[added.property.id]).toEqual({ place: 'footer', mode: 'text' });
      expect(rows[p.priority]).toEqual({ place: 'headerR', mode: 'colour' });
      // And the project's own moves show through where the view has no row of its own.
      await owner.client.patch(`/properties/${added.property.id}`, { showOnCard: false });
      expect((await viewRows(viewId))!.rows[added.property.id]).toEqual({ place: 'off', mode: 'text' });
    });

    it('{ rows: null } returns the view to the project\'s card view', async () => {
      await expectStatus(patchView(viewId, { [p.priority]: { place: 'headerR', mode: 'colour' } }), 200);
      // Storage itself: the view keeps rows of its own, then none (not a copy of the project's).
      expect((await t.sql.query('SELECT card_view FROM views WHERE id = $1', [viewId])).rows[0].card_view).not.toBeNull();
      const res = await patchView(viewId, null);
      expect(res.status).toBe(200);
      expect(res.body.cardView!.rows).toEqual(await projectRows());
      expect(await viewRows(viewId)).toBeNull();
      expect((await t.sql.query('SELECT card_view FROM views WHERE id = $1', [viewId])).rows[0].card_view).toBeNull();
    });

    it('refuses bad rows, members, agents and wrong ids', async () => {
      let res = await patchView(viewId, { [p.points]: { place: 'side', mode: 'text' } });
      expect([res.status, res.body]).toEqual([400, { error: PLACE_ERROR }]);
      res = await patchView(viewId, { [p.points]: { place: 'footer', mode: 'loud' } });
      expect([res.status, res.body]).toEqual([400, { error: MODE_ERROR }]);
      res = await patchView(viewId, { [foreign]: { place: 'footer', mode: 'text' } });
      expect([res.status, res.body]).toEqual([400, { error: KEY_ERROR }]);
      res = await patchView(viewId, { [p.points]: { place: 'off', mode: 'text' } }, member.client);
      expect([res.status, res.body]).toEqual([403, { error: GATE_ERROR }]);
      res = await patchView(viewId, { [p.points]: { place: 'off', mode: 'text' } }, robo.client);
      expect(res.status).toBe(403);
      res = await patchView(viewId, { [p.points]: { place: 'off', mode: 'text' } }, outsider.client);
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      res = await patchView('nope', { [p.points]: { place: 'off', mode: 'text' } });
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a view id.' }]);
      res = await patchView(randomUUID(), { [p.points]: { place: 'off', mode: 'text' } });
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      expect(await viewRows(viewId)).toBeNull();
      res = await patchView(viewId, { [p.points]: { place: 'off', mode: 'text' } }, admin.client);
      expect(res.status).toBe(200);
      expect((await viewRows(viewId))!.rows[p.points]).toEqual({ place: 'off', mode: 'text' });
    });
  });

  describe('PATCH /api/properties/:propertyId { showOnCard }', () => {
    it('false moves a property to off (keeping its mode); true puts it back where its type belongs', async () => {
      await expectStatus(patchProject({ [p.priority]: { place: 'headerR', mode: 'colour' } }), 200);
      await expectStatus(owner.client.patch(`/properties/${p.priority}`, { showOnCard: false }), 200);
      expect((await projectRows())[p.priority]).toEqual({ place: 'off', mode: 'colour' });
      await expectStatus(owner.client.patch(`/properties/${p.priority}`, { showOnCard: true }), 200);
      expect((await projectRows())[p.priority]).toEqual({ place: 'footer', mode: 'colour' });

      await expectStatus(owner.client.patch(`/properties/${p.owner}`, { showOnCard: false }), 200);
      expect((await projectRows())[p.owner]).toEqual({ place: 'off', mode: 'avatar' });
      await expectStatus(owner.client.patch(`/properties/${p.owner}`, { showOnCard: true }), 200);
      expect((await projectRows())[p.owner]).toEqual({ place: 'footer', mode: 'avatar' });

      // A link starts off the card; shown, it goes to the footer as text.
      expect((await projectRows())[p.links]).toEqual({ place: 'off', mode: 'text' });
      await expectStatus(owner.client.patch(`/properties/${p.links}`, { showOnCard: true }), 200);
      expect((await projectRows())[p.links]).toEqual({ place: 'footer', mode: 'text' });
      expect(inPlace(await projectRows(), 'footer')).toEqual([p.priority, p.owner, p.tags, p.points, p.links, p.notes]);
    });
  });
});
