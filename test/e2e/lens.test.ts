import { randomUUID } from 'node:crypto';
import { createProperty, expectStatus, listenChanges } from '../support/fixtures';
import { aTeam } from '../support/builders';
import { addMember, Client, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { MemberAnswer, ProjectAnswer, ViewAnswer } from '../support/answers';

/** A person's own lens on a view: PUT replaces it, promote hands it to everyone. */

describe('lenses', () => {
  let t: TestApp;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let robo: { client: Client; agent: MemberAnswer };
  let project: ProjectAnswer;
  let prio: { id: string; options: { id: string; name: string }[] };
  let notes: { id: string };
  let points: { id: string };
  let who: { id: string };
  let view: ViewAnswer;

  const board = async (c: Client = owner.client) => expectStatus(c.get(`/projects/${project.id}/board`), 200);
  const viewOf = async (id: string, c: Client = owner.client) => (await board(c)).views.find((v) => v.id === id);
  /** A person's lens on a view as the view read shows it to them. */
  const lensOf = async (viewId: string, c: Client) => {
    const v = await viewOf(viewId, c);
    return { rules: v?.lens?.rules, sort: v?.lensSort };
  };
  // Storage itself: whether a person's lens row exists (the view read shows an empty lens either way).
  const lensRow = async (viewId: string, userId: string) =>
    (await t.sql.query('SELECT rules, sort FROM lenses WHERE view_id = $1 AND user_id = $2', [viewId, userId])).rows[0];
  const putLens = (c: Client, viewId: string, body: unknown) => c.put(`/views/${viewId}/lens`, body);
  const newView = async (name: string) => (await expectStatus(owner.client.post(`/projects/${project.id}/views`, { name, kind: 'list' }), 201)).view;

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, member, outsider, project, agent: robo, props: { Priority: prio, Notes: notes, Points: points, Owner: who } } = await aTeam(t, {
      name: 'Lenses',
      key: 'LN',
      properties: { Priority: ['select', ['High', 'Low']], Notes: ['text'], Points: ['number'], Owner: ['person'] },
    }));
  });

  beforeEach(async () => {
    view = await newView(`View ${randomUUID().slice(0, 6)}`);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('PUT /api/views/:viewId/lens', () => {
    it('sets the caller\'s rules and order together, and answers { view } with them', async () => {
      const rules = [
        { propertyId: prio.id, op: 'is', values: [prio.options[0].id] },
        { propertyId: notes.id, op: 'contains', text: 'bug' },
      ];
      const res = await putLens(owner.client, view.id, { filters: { rules }, sort: { columnId: points.id, direction: 'desc' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['view']);
      expect(res.body.view).toEqual({ ...view, lens: { rules }, lensSort: { columnId: points.id, direction: 'desc' } });
      expect(await lensOf(view.id, owner.client)).toEqual({ rules, sort: { columnId: points.id, direction: 'desc' } });
      const seen = await viewOf(view.id);
      expect(seen!.lens).toEqual({ rules });
      expect(seen!.lensSort).toEqual({ columnId: points.id, direction: 'desc' });
      // The view's own filters and sort are untouched.
      expect(seen!.filters).toEqual({ rules: [] });
      expect(seen!.sort).toBeNull();
    });

    it('replaces the whole lens: sort omitted or null means no order of their own', async () => {
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: [{ propertyId: notes.id, op: 'empty' }] }, sort: { columnId: '_key', direction: 'asc' } }), 200);
      let res = await putLens(owner.client, view.id, { filters: { rules: [{ propertyId: points.id, op: 'gt', text: '3' }] } });
      expect(res.body.view.lens).toEqual({ rules: [{ propertyId: points.id, op: 'gt', text: '3' }] });
      expect(res.body.view.lensSort).toBeNull();
      expect(await lensOf(view.id, owner.client)).toEqual({ rules: [{ propertyId: points.id, op: 'gt', text: '3' }], sort: null });
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: [] }, sort: { columnId: '_title', direction: 'asc' } }), 200);
      res = await putLens(owner.client, view.id, { filters: { rules: [{ propertyId: notes.id, op: 'not_empty' }] }, sort: null });
      expect(res.body.view.lens).toEqual({ rules: [{ propertyId: notes.id, op: 'not_empty' }] });
      expect(res.body.view.lensSort).toBeNull();
    });

    it('an order alone is a lens; no rules and no order removes the lens row', async () => {
      let res = await putLens(owner.client, view.id, { filters: { rules: [] }, sort: { columnId: '_title', direction: 'desc' } });
      expect(res.body.view).toMatchObject({ lens: { rules: [] }, lensSort: { columnId: '_title', direction: 'desc' } });
      expect(await lensOf(view.id, owner.client)).toEqual({ rules: [], sort: { columnId: '_title', direction: 'desc' } });
      res = await putLens(owner.client, view.id, { filters: { rules: [] } });
      expect(res.status).toBe(200);
      expect(res.body.view).toMatchObject({ lens: { rules: [] }, lensSort: null });
      expect(await lensRow(view.id, owner.user.id)).toBeUndefined();
      // Rules that all clean away count as none.
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: [{ propertyId: notes.id, op: 'empty' }] } }), 200);
      expect(await lensRow(view.id, owner.user.id)).toBeDefined();
      res = await putLens(owner.client, view.id, { filters: { rules: [{ propertyId: randomUUID(), op: 'empty' }] }, sort: { columnId: randomUUID(), direction: 'asc' } });
      expect(res.body.view).toMatchObject({ lens: { rules: [] }, lensSort: null });
      expect(await lensRow(view.id, owner.user.id)).toBeUndefined();
    });

    it('is cleaned like a view\'s filters', async () => {
      const res = await putLens(owner.client, view.id, {
        filters: {
          rules: [
            { propertyId: randomUUID(), op: 'is', values: ['x'] },
            { propertyId: notes.id, op: 'contains', text: 'y'.repeat(230), values: ['z'], note: 'extra' },
            { propertyId: notes.id, op: 'empty' },
            { propertyId: prio.id, op: 'gt', text: '1' },
            { propertyId: points.id, op: 'eq', text: 'many' },
            { propertyId: prio.id, op: 'is_not', values: [prio.options[1].id, randomUUID()] },
            { propertyId: who.id, op: 'is', values: ['__me__'] },
          ],
        },
        sort: { columnId: '_comments', direction: 'desc', by: 'me' },
      });
      const cleaned = {
        rules: [
          { propertyId: notes.id, op: 'contains', text: 'y'.repeat(200) },
          { propertyId: prio.id, op: 'is_not', values: [prio.options[1].id] },
          { propertyId: who.id, op: 'is', values: ['__me__'] },
        ],
      };
      expect(res.body.view.lens).toEqual(cleaned);
      expect(res.body.view.lensSort).toEqual({ columnId: '_comments', direction: 'desc' });
      expect(await lensOf(view.id, owner.client)).toEqual({ rules: cleaned.rules, sort: { columnId: '_comments', direction: 'desc' } });
    });

    it('409 when a rule names a property the view already filters; nothing written', async () => {
      await expectStatus(owner.client.patch(`/views/${view.id}`, { filters: { rules: [{ propertyId: prio.id, op: 'is', values: [prio.options[0].id] }] } }), 200);
      await expectStatus(putLens(member.client, view.id, { filters: { rules: [{ propertyId: notes.id, op: 'empty' }] } }), 200);
      const res = await putLens(member.client, view.id, {
        filters: { rules: [{ propertyId: points.id, op: 'gt', text: '1' }, { propertyId: prio.id, op: 'is_not', values: [prio.options[1].id] }] },
        sort: { columnId: '_key', direction: 'asc' },
      });
      expect([res.status, res.body]).toEqual([409, { error: 'The view already filters Priority. Remove it for everyone first.' }]);
      expect(await lensOf(view.id, member.client)).toEqual({ rules: [{ propertyId: notes.id, op: 'empty' }], sort: null });
    });

    it('is a person\'s: an agent gets 403; wrong ids are refused', async () => {
      let res = await putLens(robo.client, view.id, { filters: { rules: [{ propertyId: notes.id, op: 'empty' }] } });
      expect([res.status, res.body]).toEqual([403, { error: 'Only a person can do this.' }]);
      // Storage itself: the refusal left no lens row for anyone.
      expect((await t.sql.query('SELECT count(*)::int AS n FROM lenses WHERE view_id = $1', [view.id])).rows[0].n).toBe(0);
      res = await putLens(owner.client, 'nope', { filters: { rules: [] } });
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a view id.' }]);
      res = await putLens(owner.client, randomUUID(), { filters: { rules: [] } });
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      res = await putLens(outsider.client, view.id, { filters: { rules: [] } });
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
    });

    it('is not broadcast', async () => {
      const l = await listenChanges(t.databaseUrl);
      try {
        await expectStatus(
          owner.client.put(`/views/${view.id}/lens`, { filters: { rules: [{ propertyId: notes.id, op: 'empty' }] }, sort: { columnId: '_key', direction: 'desc' } }, { headers: { 'x-service-client': 'lens' } }),
          200,
        );
        await expectStatus(putLens(owner.client, view.id, { filters: { rules: [] } }), 200);
        // A write that does ring, after the lens writes: notifications arrive in commit order.
        await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'After the lens' }, { headers: { 'x-service-client': 'marker' } }), 200);
        await l.waitFor((p) => p.clientId === 'marker');
        expect(l.seen.filter((p) => p.projectId === project.id)).toEqual([{ projectId: project.id, scope: 'board', clientId: 'marker' }]);
      } finally {
        await l.close();
      }
    });

    it('each person sees only their own lens; an agent always reads none', async () => {
      const ownerRules = [{ propertyId: notes.id, op: 'contains', text: 'owner' }];
      const memberRules = [{ propertyId: points.id, op: 'lt', text: '5' }];
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: ownerRules }, sort: { columnId: '_title', direction: 'asc' } }), 200);
      await expectStatus(putLens(member.client, view.id, { filters: { rules: memberRules } }), 200);
      expect(await viewOf(view.id, owner.client)).toMatchObject({ lens: { rules: ownerRules }, lensSort: { columnId: '_title', direction: 'asc' } });
      expect(await viewOf(view.id, member.client)).toMatchObject({ lens: { rules: memberRules }, lensSort: null });
      const third = await registerPerson(t, 'Tess');
      await addMember(owner.client, project.id, third);
      expect(await viewOf(view.id, third.client)).toMatchObject({ lens: { rules: [] }, lensSort: null });
      // An agent reads none, even if a lens row were kept under its id.
      await t.sql.query(`INSERT INTO lenses (project_id, view_id, user_id, rules, sort) VALUES ($1, $2, $3, $4, $5)`, [
        project.id, view.id, robo.agent.id, JSON.stringify(memberRules), JSON.stringify({ columnId: '_key', direction: 'desc' }),
      ]);
      for (const v of (await board(robo.client)).views) {
        expect(v.lens).toEqual({ rules: [] });
        expect(v.lensSort).toBeNull();
      }
      const viaPatch = await expectStatus(robo.client.patch(`/views/${view.id}`, { name: 'Robo renamed' }), 200);
      expect(viaPatch.view).toMatchObject({ lens: { rules: [] }, lensSort: null });
    });

    it('a lens rule naming a deleted property is thrown away on read; a lensSort naming it reads as null', async () => {
      const gone = await createProperty(owner.client, project.id, 'Temporary', 'number');
      await expectStatus(putLens(owner.client, view.id, {
        filters: { rules: [{ propertyId: gone.id, op: 'gt', text: '1' }, { propertyId: notes.id, op: 'empty' }] },
        sort: { columnId: gone.id, direction: 'asc' },
      }), 200);
      await expectStatus(owner.client.delete(`/properties/${gone.id}`), 200);
      expect(await viewOf(view.id)).toMatchObject({ lens: { rules: [{ propertyId: notes.id, op: 'empty' }] }, lensSort: null });
    });
  });

  describe('POST /api/views/:viewId/lens/promote', () => {
    it('appends the caller\'s rules in order, moves their order to the view, empties the lens and rings', async () => {
      const shared = [{ propertyId: prio.id, op: 'is', values: [prio.options[0].id] }];
      await expectStatus(owner.client.patch(`/views/${view.id}`, { filters: { rules: shared }, sort: { columnId: '_key', direction: 'asc' } }), 200);
      const mine = [
        { propertyId: points.id, op: 'gt', text: '2' },
        { propertyId: notes.id, op: 'contains', text: 'x' },
      ];
      await expectStatus(putLens(member.client, view.id, { filters: { rules: mine }, sort: { columnId: points.id, direction: 'desc' } }), 200);
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: [{ propertyId: who.id, op: 'is', values: ['__me__'] }] } }), 200);
      const l = await listenChanges(t.databaseUrl);
      try {
        const res = await member.client.post(`/views/${view.id}/lens/promote`, undefined, { headers: { 'x-service-client': 'promote' } });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(['view']);
        expect(res.body.view).toEqual({
          ...view,
          filters: { rules: [...shared, ...mine] },
          sort: { columnId: points.id, direction: 'desc' },
          lens: { rules: [] },
          lensSort: null,
        });
        await l.waitFor((p) => p.clientId === 'promote');
        expect(l.seen.filter((p) => p.projectId === project.id)).toEqual([{ projectId: project.id, scope: 'board', clientId: 'promote' }]);
      } finally {
        await l.close();
      }
      expect(await lensRow(view.id, member.user.id)).toBeUndefined();
      // The view's own filters and order, as an agent (who has no lens) reads them.
      const { filters, sort } = (await viewOf(view.id, robo.client))!;
      expect({ filters, sort }).toEqual({ filters: { rules: [...shared, ...mine] }, sort: { columnId: points.id, direction: 'desc' } });
      // Everyone sees the promoted rules; the owner keeps their own lens.
      expect(await viewOf(view.id, robo.client)).toMatchObject({ filters: { rules: [...shared, ...mine] }, sort: { columnId: points.id, direction: 'desc' } });
      expect(await viewOf(view.id, owner.client)).toMatchObject({
        filters: { rules: [...shared, ...mine] },
        lens: { rules: [{ propertyId: who.id, op: 'is', values: ['__me__'] }] },
      });
    });

    it('keeps the view\'s sort when the lens had no order', async () => {
      await expectStatus(owner.client.patch(`/views/${view.id}`, { sort: { columnId: '_title', direction: 'desc' } }), 200);
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: [{ propertyId: notes.id, op: 'not_empty' }] } }), 200);
      const res = await owner.client.post(`/views/${view.id}/lens/promote`);
      expect(res.status).toBe(200);
      expect(res.body.view).toMatchObject({
        filters: { rules: [{ propertyId: notes.id, op: 'not_empty' }] },
        sort: { columnId: '_title', direction: 'desc' },
        lens: { rules: [] },
        lensSort: null,
      });
      expect(await lensRow(view.id, owner.user.id)).toBeUndefined();
    });

    it('an order alone moves onto the view', async () => {
      await expectStatus(putLens(owner.client, view.id, { filters: { rules: [] }, sort: { columnId: '_updated', direction: 'asc' } }), 200);
      const res = await owner.client.post(`/views/${view.id}/lens/promote`);
      expect(res.body.view).toMatchObject({ filters: { rules: [] }, sort: { columnId: '_updated', direction: 'asc' }, lensSort: null });
      expect(await lensRow(view.id, owner.user.id)).toBeUndefined();
    });

    it('409 when the view meanwhile filters the same property; nothing is written', async () => {
      await expectStatus(putLens(member.client, view.id, {
        filters: { rules: [{ propertyId: notes.id, op: 'empty' }, { propertyId: points.id, op: 'gt', text: '1' }] },
        sort: { columnId: '_key', direction: 'desc' },
      }), 200);
      // Somebody else puts Points on the view for everyone.
      const shared = [{ propertyId: points.id, op: 'lt', text: '10' }];
      await expectStatus(owner.client.patch(`/views/${view.id}`, { filters: { rules: shared }, sort: { columnId: '_title', direction: 'asc' } }), 200);
      const l = await listenChanges(t.databaseUrl);
      try {
        const res = await member.client.post(`/views/${view.id}/lens/promote`);
        expect([res.status, res.body]).toEqual([409, { error: 'The view already filters Points. Remove it for everyone first.' }]);
        await expectStatus(owner.client.patch(`/views/${view.id}`, { name: 'marker' }, { headers: { 'x-service-client': 'marker' } }), 200);
        await l.waitFor((p) => p.clientId === 'marker');
        expect(l.seen.filter((p) => p.projectId === project.id)).toHaveLength(1);
      } finally {
        await l.close();
      }
      // The view's own filters and order, as an agent (who has no lens) reads them.
      const { filters, sort } = (await viewOf(view.id, robo.client))!;
      expect({ filters, sort }).toEqual({ filters: { rules: shared }, sort: { columnId: '_title', direction: 'asc' } });
      expect(await lensOf(view.id, member.client)).toEqual({
        rules: [{ propertyId: notes.id, op: 'empty' }, { propertyId: points.id, op: 'gt', text: '1' }],
        sort: { columnId: '_key', direction: 'desc' },
      });
    });

    it('is a person\'s; any member may; wrong ids are refused', async () => {
      let res = await robo.client.post(`/views/${view.id}/lens/promote`);
      expect([res.status, res.body]).toEqual([403, { error: 'Only a person can do this.' }]);
      res = await owner.client.post('/views/xyz/lens/promote');
      expect([res.status, res.body]).toEqual([400, { error: 'That is not a view id.' }]);
      res = await owner.client.post(`/views/${randomUUID()}/lens/promote`);
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      res = await outsider.client.post(`/views/${view.id}/lens/promote`);
      expect([res.status, res.body]).toEqual([404, { error: 'View not found.' }]);
      // With nothing in the lens, the view stays as it was.
      res = await member.client.post(`/views/${view.id}/lens/promote`);
      expect(res.status).toBe(200);
      expect(res.body.view).toMatchObject({ filters: { rules: [] }, sort: null, lens: { rules: [] }, lensSort: null });
    });
  });
});
