import { createHash, randomUUID } from 'node:crypto';
import { expectError } from '../support/fixtures';
import { boardOf, projectFeed } from '../support/builders-b';
import { addMember, Client, createAgent, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { ProjectAnswer } from '../support/answers';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = /^[A-Z][A-Z0-9]{1,9}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const KEY_INVALID = 'A key is 2 to 10 letters or digits and starts with a letter.';
const DONE_WHEN_INVALID = 'doneWhen names a select property of this project and some of its options, or is null.';

describe('projects', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Storage itself: a count over every person's projects, which no one person's read shows. */
  const count = async (sql: string, params: unknown[] = []) => Number((await t.sql.query(sql, params)).rows[0].n);
  /** The project as `GET /projects` lists it to `as` (a member). */
  const projectOf = async (as: Client, projectId: string) => {
    const found = (await as.get('/projects')).body.projects.find((x) => x.id === projectId);
    if (!found) throw new Error(`project ${projectId} is not listed`);
    return found;
  };
  /** A property's config as the API shows it: nothing set reads as no date, no defaults, no rule. */
  const NO_CONFIG = { dated: false, defaults: {}, when: null };
  /** The project's properties (with config and options), as its board shows them, in display order. */
  const propertiesOf = async (as: Client, projectId: string) => (await boardOf(as, projectId)).properties;

  /** The seeded Status property of a project and its options by name. */
  async function statusOf(as: Client, projectId: string) {
    const found = (await propertiesOf(as, projectId)).find((x) => x.name === 'Status');
    if (!found) throw new Error(`project ${projectId} has no Status`);
    const property = { id: found.id, name: found.name, type: found.type, config: found.config };
    const options: Record<string, string> = Object.fromEntries(found.options.map((o) => [o.name, o.id]));
    return { property, options, names: found.options.map((o) => o.name) };
  }

  describe('GET /api/projects', () => {
    it('answers an empty list for a person with no project', async () => {
      const pat = await registerPerson(t);
      const res = await pat.client.get('/projects');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ projects: [] });
    });

    it('lists the caller\'s projects in their own order with the read shape and taskCount', async () => {
      const pat = await registerPerson(t, 'Pat');
      const first = await createProject(pat.client, 'Alpha list');
      const second = await createProject(pat.client, 'Beta list');
      const res = await pat.client.get('/projects');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ projects: [{ ...first, taskCount: 0 }, { ...second, taskCount: 0 }] });
      for (const p of res.body.projects) {
        expect(Object.keys(p).sort()).toEqual(
          ['createdAt', 'dailyBudgetMicros', 'doneWhen', 'id', 'key', 'name', 'ownerId', 'releases', 'role', 'sprints', 'taskCount'],
        );
        expect(p.role).toBe('owner');
        expect(p.ownerId).toBe(pat.user.id);
      }
    });

    it('shows each member their own role and nothing of projects they are not in', async () => {
      const owner = await registerPerson(t, 'Owner');
      const member = await registerPerson(t, 'Member');
      const shared = await createProject(owner.client, 'Shared list');
      await createProject(owner.client, 'Private list');
      await addMember(owner.client, shared.id, member);
      const res = await member.client.get('/projects');
      expect(res.body).toEqual({ projects: [{ ...shared, role: 'member', taskCount: 0 }] });
    });
  });

  describe('POST /api/projects', () => {
    it('creates a project with the read shape and a key derived from the name', async () => {
      const pat = await registerPerson(t, 'Pat');
      const res = await pat.client.post('/projects', { name: 'Task Board' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['project']);
      const p = res.body.project;
      expect(p).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Task Board',
        key: 'TB',
        ownerId: pat.user.id,
        role: 'owner',
        doneWhen: { propertyId: expect.stringMatching(UUID), optionIds: [expect.stringMatching(UUID)] },
        releases: false,
        sprints: false,
        createdAt: expect.stringMatching(ISO),
        dailyBudgetMicros: null,
      });
      expect(Math.abs(Date.parse(p.createdAt!) - Date.now())).toBeLessThan(60_000);
      const listed = (await pat.client.get('/projects')).body.projects.find((x) => x.id === p.id);
      expect({ name: listed?.name, key: listed?.key, ownerId: listed?.ownerId }).toEqual({ name: 'Task Board', key: 'TB', ownerId: pat.user.id });
      expect((await boardOf(pat.client, p.id)).members.find((m) => m.id === pat.user.id)?.role).toBe('owner');
    });

    it('derives a different unique key for a second project with the same name', async () => {
      const pat = await registerPerson(t);
      const a = await createProject(pat.client, 'Same Name Here');
      const b = await createProject(pat.client, 'Same Name Here');
      expect(a.key).toBe('SNH');
      expect(b.key).not.toBe(a.key);
      expect(b.key).toMatch(KEY);
      // Storage itself: the key is unique across every person's projects.
      expect(await count('SELECT count(*) AS n FROM projects WHERE key = $1', [b.key])).toBe(1);
    });

    it('derives the key when key is null', async () => {
      const pat = await registerPerson(t);
      const res = await pat.client.post('/projects', { name: 'Null Key', key: null });
      expect(res.status).toBe(201);
      expect(res.body.project.key).toBe('NK');
    });

    it('gives simultaneous creates of one name distinct keys', async () => {
      const pat = await registerPerson(t);
      const answers = await Promise.all(Array.from({ length: 6 }, () => pat.client.post('/projects', { name: 'Race Condition Zone' })));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const keys = answers.map((a) => a.body.project.key);
      expect(new Set(keys).size).toBe(6);
      expect(keys).toContain('RCZ');
      for (const key of keys) expect(key).toMatch(KEY);
    });

    it('lets only one of simultaneous creates with one explicit key through', async () => {
      const pat = await registerPerson(t);
      const answers = await Promise.all(Array.from({ length: 4 }, () => pat.client.post('/projects', { name: 'Racer', key: 'RACE' })));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toEqual({ error: 'Another project already uses the key RACE.' });
      expect(await count(`SELECT count(*) AS n FROM projects WHERE name = 'Racer'`)).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM properties p JOIN projects j ON j.id = p.project_id WHERE j.name = 'Racer'`)).toBe(1);
    });

    it('derives a valid key from names that have no usable initials', async () => {
      const pat = await registerPerson(t);
      const keys = new Set<string>();
      for (const name of ['Marketing', '!!!', 'Проект', '2024 plan', 'x', '9']) {
        const p = await createProject(pat.client, name);
        expect(p.key).toMatch(KEY);
        keys.add(p.key);
      }
      expect(keys.size).toBe(6);
    });

    it('upper-cases and trims an explicit key', async () => {
      const pat = await registerPerson(t);
      const res = await pat.client.post('/projects', { name: 'Keyed', key: 'ab1' });
      expect(res.status).toBe(201);
      expect(res.body.project.key).toBe('AB1');
      const trimmed = await pat.client.post('/projects', { name: 'Keyed', key: ' cd2 ' });
      expect(trimmed.status).toBe(201);
      expect(trimmed.body.project.key).toBe('CD2');
    });

    it('takes a key of exactly 2 and exactly 10 characters', async () => {
      const pat = await registerPerson(t);
      expect((await createProject(pat.client, 'Two', 'QZ')).key).toBe('QZ');
      expect((await createProject(pat.client, 'Ten', 'QWERTYUIO1')).key).toBe('QWERTYUIO1');
    });

    it('refuses a key that is not 2 to 10 letters or digits starting with a letter', async () => {
      const pat = await registerPerson(t);
      const mine = async () => (await pat.client.get('/projects')).body.projects.length;
      const before = await mine();
      for (const key of ['A', 'ABCDEFGHIJK', '1AB', 'AB-1', 'A B', '', 'ÄB', 42, true]) {
        const res = await pat.client.post('/projects', { name: 'Bad key', key });
        expectError(res, 400, KEY_INVALID);
      }
      expect(await mine()).toBe(before);
    });

    it('refuses a key another project already uses, whatever its case', async () => {
      const pat = await registerPerson(t);
      const other = await registerPerson(t);
      await createProject(pat.client, 'First', 'DUP1');
      expectError(await other.client.post('/projects', { name: 'Second', key: 'DUP1' }), 409, 'Another project already uses the key DUP1.');
      expectError(await other.client.post('/projects', { name: 'Second', key: 'dup1' }), 409, 'Another project already uses the key DUP1.');
      expect((await other.client.get('/projects')).body.projects.filter((x) => x.name === 'Second')).toHaveLength(0);
    });

    it('refuses a missing, empty, too long or non-text name', async () => {
      const pat = await registerPerson(t);
      expectError(await pat.client.post('/projects', {}), 400, 'Name cannot be empty.');
      expectError(await pat.client.post('/projects', { name: null }), 400, 'Name cannot be empty.');
      expectError(await pat.client.post('/projects', { name: '   ' }), 400, 'Name cannot be empty.');
      expectError(await pat.client.post('/projects', { name: 'n'.repeat(81) }), 400, 'Name is too long (max 80 characters).');
      expectError(await pat.client.post('/projects', { name: 42 }), 400, 'Name must be text.');
      expectError(await pat.client.post('/projects', { name: ['a'] }), 400, 'Name must be text.');
      expect((await pat.client.get('/projects')).body).toEqual({ projects: [] });
    });

    it('trims the name and takes 80 characters', async () => {
      const pat = await registerPerson(t);
      expect((await createProject(pat.client, '  Spaced out  ')).name).toBe('Spaced out');
      expect((await createProject(pat.client, 'n'.repeat(80))).name).toBe('n'.repeat(80));
    });

    it('seeds Status (To do, In progress, Done), doneWhen and the main board view', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Seeded');
      const props = (await propertiesOf(pat.client, p.id)).map(({ id, name, type, config }) => ({ id, name, type, config }));
      expect(props).toEqual([{ id: expect.any(String), name: 'Status', type: 'select', config: NO_CONFIG }]);
      const status = await statusOf(pat.client, p.id);
      expect(status.names).toEqual(['To do', 'In progress', 'Done']);
      expect((await propertiesOf(pat.client, p.id)).flatMap((x) => x.options)).toHaveLength(3);
      expect(p.doneWhen).toEqual({ propertyId: status.property.id, optionIds: [status.options.Done] });
      const views = (await boardOf(pat.client, p.id)).views.map(({ name, kind, groupById, isDefault }) => ({ name, kind, groupById, isDefault }));
      expect(views).toEqual([{ name: 'Board', kind: 'board', groupById: status.property.id, isDefault: true }]);
      expect((await projectOf(pat.client, p.id)).doneWhen).toEqual(p.doneWhen);
    });
  });

  describe('PATCH /api/projects/{projectId}', () => {
    it('renames the project for the owner and answers the read shape', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Old name');
      const res = await pat.client.patch(`/projects/${p.id}`, { name: '  New name ' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ project: { ...p, name: 'New name' } });
      expect((await pat.client.get('/projects')).body.projects[0].name).toBe('New name');
    });

    it('lets an admin change the settings and answers with the admin\'s role', async () => {
      const owner = await registerPerson(t);
      const admin = await registerPerson(t);
      const p = await createProject(owner.client, 'Admin edits');
      await addMember(owner.client, p.id, admin, 'admin');
      const res = await admin.client.patch(`/projects/${p.id}`, { name: 'Edited by admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ project: { ...p, name: 'Edited by admin', role: 'admin' } });
    });

    it('refuses a bad name and writes nothing', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Keep me');
      expectError(await pat.client.patch(`/projects/${p.id}`, { name: '' }), 400, 'Name cannot be empty.');
      expectError(await pat.client.patch(`/projects/${p.id}`, { name: null }), 400, 'Name cannot be empty.');
      expectError(await pat.client.patch(`/projects/${p.id}`, { name: 'x'.repeat(81) }), 400, 'Name is too long (max 80 characters).');
      expectError(await pat.client.patch(`/projects/${p.id}`, { name: 5 }), 400, 'Name must be text.');
      expect((await projectOf(pat.client, p.id)).name).toBe('Keep me');
    });

    it('changes the key, upper-cased', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Rekey', 'REKEY1');
      const res = await pat.client.patch(`/projects/${p.id}`, { key: 'newkey1' });
      expect(res.status).toBe(200);
      expect(res.body.project.key).toBe('NEWKEY1');
      expect((await projectOf(pat.client, p.id)).key).toBe('NEWKEY1');
      // Its own key again is no clash.
      const same = await pat.client.patch(`/projects/${p.id}`, { key: 'NEWKEY1' });
      expect(same.status).toBe(200);
      expect(same.body.project.key).toBe('NEWKEY1');
    });

    it('refuses a bad or taken key', async () => {
      const pat = await registerPerson(t);
      await createProject(pat.client, 'Holder', 'HOLD1');
      const p = await createProject(pat.client, 'Mover', 'MOVE1');
      for (const key of ['M', 'M-1', '1M', 'ABCDEFGHIJK', null, 7]) {
        expectError(await pat.client.patch(`/projects/${p.id}`, { key }), 400, KEY_INVALID);
      }
      expectError(await pat.client.patch(`/projects/${p.id}`, { key: 'hold1' }), 409, 'Another project already uses the key HOLD1.');
      expect((await projectOf(pat.client, p.id)).key).toBe('MOVE1');
    });

    it('refuses in the order the contract checks: shapes of name, key and budget first, then the key clash, then doneWhen and the flags', async () => {
      const pat = await registerPerson(t);
      await createProject(pat.client, 'Holder', 'HOLD2');
      const p = await createProject(pat.client, 'Ordered');
      const patch = (body: Record<string, unknown>) => pat.client.patch(`/projects/${p.id}`, body);
      expectError(await patch({ key: 'hold2', releases: 'no', dailyBudgetMicros: 0 }), 400, 'The daily budget is a whole number above zero, or null.');
      expectError(await patch({ key: 'hold2', doneWhen: 'Done', releases: 'no' }), 409, 'Another project already uses the key HOLD2.');
      expectError(await patch({ doneWhen: 'Done', releases: 'no' }), 400, DONE_WHEN_INVALID);
      // The property a doneWhen names is looked up before its options' shape is judged.
      expectError(await patch({ doneWhen: { propertyId: randomUUID(), optionIds: 'x' } }), 400, 'That property is not in this project.');
      expectError(await patch({ releases: 'no', sprints: 'no' }), 400, 'Releases is true or false.');
      expect((await projectOf(pat.client, p.id)).releases).toBe(false);
    });

    it('writes nothing when one field of the body is refused', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Atomic');
      expectError(await pat.client.patch(`/projects/${p.id}`, { name: 'Changed', key: '1bad' }), 400, KEY_INVALID);
      expectError(await pat.client.patch(`/projects/${p.id}`, { releases: true, sprints: 'no' }), 400, 'Sprints is true or false.');
      const { name, key, releases, sprints } = await projectOf(pat.client, p.id);
      expect({ name, key, releases, sprints }).toEqual({ name: 'Atomic', key: p.key, releases: false, sprints: false });
      expect(await propertiesOf(pat.client, p.id)).toHaveLength(1);
    });

    describe('doneWhen', () => {
      let pat: Awaited<ReturnType<typeof registerPerson>>;
      let p: ProjectAnswer;
      let status: Awaited<ReturnType<typeof statusOf>>;
      beforeAll(async () => {
        pat = await registerPerson(t);
        p = await createProject(pat.client, 'Done rules');
        status = await statusOf(pat.client, p.id);
      });

      it('takes a select property of the project and some of its options', async () => {
        const doneWhen = { propertyId: status.property.id, optionIds: [status.options['In progress'], status.options.Done] };
        const res = await pat.client.patch(`/projects/${p.id}`, { doneWhen });
        expect(res.status).toBe(200);
        expect(res.body.project.doneWhen).toEqual(doneWhen);
        expect((await projectOf(pat.client, p.id)).doneWhen).toEqual(doneWhen);
      });

      it('counts a repeated option once', async () => {
        const res = await pat.client.patch(`/projects/${p.id}`, {
          doneWhen: { propertyId: status.property.id, optionIds: [status.options.Done, status.options.Done] },
        });
        expect(res.status).toBe(200);
        expect(res.body.project.doneWhen).toEqual({ propertyId: status.property.id, optionIds: [status.options.Done] });
      });

      it('takes null', async () => {
        const res = await pat.client.patch(`/projects/${p.id}`, { doneWhen: null });
        expect(res.status).toBe(200);
        expect(res.body.project.doneWhen).toBeNull();
        expect((await projectOf(pat.client, p.id)).doneWhen).toBeNull();
        const listed = (await pat.client.get('/projects')).body.projects.find((x) => x.id === p.id)!;
        expect(listed.doneWhen).toBeNull();
      });

      it('refuses a property of another project', async () => {
        const other = await createProject(pat.client, 'Other done');
        const otherStatus = await statusOf(pat.client, other.id);
        const res = await pat.client.patch(`/projects/${p.id}`, {
          doneWhen: { propertyId: otherStatus.property.id, optionIds: [otherStatus.options.Done] },
        });
        expectError(res, 400, 'That property is not in this project.');
        const unknown = await pat.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: randomUUID(), optionIds: [] } });
        expectError(unknown, 400, 'That property is not in this project.');
      });

      it('refuses an option that is not of the property', async () => {
        const other = await createProject(pat.client, 'Other options');
        const otherStatus = await statusOf(pat.client, other.id);
        const before = (await projectOf(pat.client, p.id)).doneWhen;
        for (const optionIds of [[otherStatus.options.Done], [status.options.Done, randomUUID()]]) {
          const res = await pat.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: status.property.id, optionIds } });
          expectError(res, 400, DONE_WHEN_INVALID);
        }
        expect((await projectOf(pat.client, p.id)).doneWhen).toEqual(before);
      });

      it('refuses a property of this project that is not a select, and takes a dated select', async () => {
        expect((await pat.client.patch(`/projects/${p.id}`, { sprints: true, releases: true })).status).toBe(200);
        const sprint = (await propertiesOf(pat.client, p.id)).find((x) => x.type === 'iteration')!;
        const res = await pat.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: sprint.id, optionIds: [] } });
        expectError(res, 400, DONE_WHEN_INVALID);
        const release = (await propertiesOf(pat.client, p.id)).find((x) => x.name === 'Release')!;
        const ok = await pat.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: release.id, optionIds: [] } });
        expect(ok.status).toBe(200);
        expect(ok.body.project.doneWhen).toEqual({ propertyId: release.id, optionIds: [] });
      });

      it('refuses a doneWhen of the wrong shape', async () => {
        for (const doneWhen of ['Done', 3, [status.property.id], { propertyId: status.property.id, optionIds: 'x' }]) {
          expectError(await pat.client.patch(`/projects/${p.id}`, { doneWhen }), 400, DONE_WHEN_INVALID);
        }
        expectError(await pat.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: 'nope', optionIds: [] } }), 400, 'That is not a property id.');
        expectError(
          await pat.client.patch(`/projects/${p.id}`, { doneWhen: { propertyId: status.property.id, optionIds: ['nope'] } }),
          400,
          'That is not an option id.',
        );
      });
    });

    it('turns releases on: a dated select Release is created once', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Releasing');
      const res = await pat.client.patch(`/projects/${p.id}`, { releases: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ project: { ...p, releases: true } });
      const releases = async () =>
        (await propertiesOf(pat.client, p.id)).filter((x) => x.name === 'Release').map(({ name, type, config }) => ({ name, type, config }));
      expect(await releases()).toEqual([{ name: 'Release', type: 'select', config: { ...NO_CONFIG, dated: true } }]);
      expect((await pat.client.patch(`/projects/${p.id}`, { releases: true })).status).toBe(200);
      const off = await pat.client.patch(`/projects/${p.id}`, { releases: false });
      expect(off.body.project.releases).toBe(false);
      expect(await releases()).toHaveLength(1);
      expect((await pat.client.patch(`/projects/${p.id}`, { releases: true })).body.project.releases).toBe(true);
      expect(await releases()).toHaveLength(1);
      expect(await propertiesOf(pat.client, p.id)).toHaveLength(2);
    });

    it('turns sprints on: an iteration Sprint is created once', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Sprinting');
      const res = await pat.client.patch(`/projects/${p.id}`, { sprints: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ project: { ...p, sprints: true } });
      await pat.client.patch(`/projects/${p.id}`, { sprints: false });
      await pat.client.patch(`/projects/${p.id}`, { sprints: true });
      const rows = (await propertiesOf(pat.client, p.id)).filter((x) => x.type === 'iteration').map(({ name, type }) => ({ name, type }));
      expect(rows).toEqual([{ name: 'Sprint', type: 'iteration' }]);
      const { releases, sprints } = await projectOf(pat.client, p.id);
      expect({ releases, sprints }).toEqual({ releases: false, sprints: true });
    });

    it('refuses releases and sprints that are not booleans', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Flags');
      for (const value of ['true', 1, null, {}]) {
        expectError(await pat.client.patch(`/projects/${p.id}`, { releases: value }), 400, 'Releases is true or false.');
        expectError(await pat.client.patch(`/projects/${p.id}`, { sprints: value }), 400, 'Sprints is true or false.');
      }
      expect(await propertiesOf(pat.client, p.id)).toHaveLength(1);
    });
  });

  describe('DELETE /api/projects/{projectId}', () => {
    it('removes the project and everything of it', async () => {
      const owner = await registerPerson(t);
      const member = await registerPerson(t);
      const p = await createProject(owner.client, 'Doomed');
      const keep = await createProject(owner.client, 'Survivor');
      await addMember(owner.client, p.id, member);
      const agent = await createAgent(owner.client, p.id);
      await owner.client.post(`/projects/${p.id}/members`, { email: 'invited-doomed@example.com' });
      await owner.client.put(`/projects/${p.id}/rules`, { text: 'Be good.' });
      await owner.client.patch(`/projects/${p.id}`, { releases: true, sprints: true });

      const res = await owner.client.delete(`/projects/${p.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });

      // Storage itself: a deleted project leaves no row anywhere, which no read can show.
      for (const table of ['properties', 'options', 'views', 'members', 'invites', 'agent_tokens', 'activity']) {
        expect([table, await count(`SELECT count(*) AS n FROM ${table} WHERE project_id = $1`, [p.id])]).toEqual([table, 0]);
      }
      expect(await count('SELECT count(*) AS n FROM projects WHERE id = $1', [p.id])).toBe(0);
      expect(await count('SELECT count(*) AS n FROM users WHERE project_id = $1', [p.id])).toBe(0);
      // The other project is untouched.
      expect(await propertiesOf(owner.client, keep.id)).toHaveLength(1);
      expect((await boardOf(owner.client, keep.id)).members).toHaveLength(1);

      expectError(await owner.client.get(`/projects/${p.id}/rules`), 404, 'Project not found.');
      expectError(await member.client.get(`/projects/${p.id}/rules`), 404, 'Project not found.');
      expectError(await agent.client.get(`/projects/${p.id}/rules`), 401, 'That token is not valid any more.');
      expect((await owner.client.get('/projects')).body.projects.map((x) => x.id)).toEqual([keep.id]);
      expect((await member.client.get('/projects')).body).toEqual({ projects: [] });
    });

    it('frees the key for a new project', async () => {
      const owner = await registerPerson(t);
      const p = await createProject(owner.client, 'Key freed', 'FREED');
      expect((await owner.client.delete(`/projects/${p.id}`)).status).toBe(200);
      expect((await createProject(owner.client, 'Key again', 'FREED')).key).toBe('FREED');
    });
  });

  describe('POST /api/projects/{projectId}/hand-over', () => {
    it('makes a human member the owner and the old owner an admin', async () => {
      const owner = await registerPerson(t);
      const heir = await registerPerson(t);
      const p = await createProject(owner.client, 'Handed');
      await addMember(owner.client, p.id, heir);
      const res = await owner.client.post(`/projects/${p.id}/hand-over`, { userId: heir.user.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });

      const roles = (await boardOf(heir.client, p.id)).members.map((m) => ({ userId: m.id, role: m.role })).sort((x, y) => (x.role < y.role ? -1 : 1));
      expect(roles).toEqual([
        { userId: owner.user.id, role: 'admin' },
        { userId: heir.user.id, role: 'owner' },
      ]);
      const heirView = (await heir.client.get('/projects')).body.projects[0];
      expect(heirView).toEqual({ ...p, ownerId: heir.user.id, role: 'owner', taskCount: 0 });
      const oldView = (await owner.client.get('/projects')).body.projects[0];
      expect(oldView).toEqual({ ...p, ownerId: heir.user.id, role: 'admin', taskCount: 0 });

      // Ownership moved with it: the old owner is refused owner routes, the new one is not.
      expectError(await owner.client.delete(`/projects/${p.id}`), 403, 'Only the owner can delete the project.');
      expect((await heir.client.post(`/projects/${p.id}/hand-over`, { userId: owner.user.id })).status).toBe(200);
      expect((await owner.client.get('/projects')).body.projects[0].role).toBe('owner');
    });

    it('hands over to an admin too', async () => {
      const owner = await registerPerson(t);
      const admin = await registerPerson(t);
      const p = await createProject(owner.client, 'To admin');
      await addMember(owner.client, p.id, admin, 'admin');
      expect((await owner.client.post(`/projects/${p.id}/hand-over`, { userId: admin.user.id })).status).toBe(200);
      expect((await projectOf(owner.client, p.id)).ownerId).toBe(admin.user.id);
    });

    it('refuses a person who is not a member, and unknown ids', async () => {
      const owner = await registerPerson(t);
      const stranger = await registerPerson(t);
      const p = await createProject(owner.client, 'Kept');
      expectError(await owner.client.post(`/projects/${p.id}/hand-over`, { userId: stranger.user.id }), 404, 'Member not found.');
      expectError(await owner.client.post(`/projects/${p.id}/hand-over`, { userId: randomUUID() }), 404, 'Member not found.');
      expectError(await owner.client.post(`/projects/${p.id}/hand-over`, { userId: 'nope' }), 400, 'That is not a member id.');
      expectError(await owner.client.post(`/projects/${p.id}/hand-over`, {}), 400, 'That is not a member id.');
      expect((await projectOf(owner.client, p.id)).ownerId).toBe(owner.user.id);
    });

    it('refuses an agent', async () => {
      const owner = await registerPerson(t);
      const p = await createProject(owner.client, 'No robots');
      const agent = await createAgent(owner.client, p.id);
      expectError(
        await owner.client.post(`/projects/${p.id}/hand-over`, { userId: agent.agent.id }),
        400,
        'A project can only be handed over to a person who is a member.',
      );
      expect((await projectOf(owner.client, p.id)).ownerId).toBe(owner.user.id);
      expect((await boardOf(owner.client, p.id)).members.find((m) => m.id === agent.agent.id)?.role).toBe('member');
    });
  });

  describe('PUT /api/projects/{projectId}/position', () => {
    it('moves a project in the caller\'s own list and nobody else\'s', async () => {
      const pat = await registerPerson(t);
      const sam = await registerPerson(t);
      const a = await createProject(pat.client, 'Pos A');
      const b = await createProject(pat.client, 'Pos B');
      const c = await createProject(pat.client, 'Pos C');
      for (const p of [a, b, c]) await addMember(pat.client, p.id, sam);
      const order = async (who: Client) => (await who.get('/projects')).body.projects.map((p) => p.name);

      expect(await order(pat.client)).toEqual(['Pos A', 'Pos B', 'Pos C']);

      const first = await pat.client.put(`/projects/${c.id}/position`, { afterId: null });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ok: true });
      expect(await order(pat.client)).toEqual(['Pos C', 'Pos A', 'Pos B']);

      expect((await pat.client.put(`/projects/${a.id}/position`, { afterId: b.id })).status).toBe(200);
      expect(await order(pat.client)).toEqual(['Pos C', 'Pos B', 'Pos A']);

      expect((await pat.client.put(`/projects/${c.id}/position`, { afterId: b.id })).status).toBe(200);
      expect(await order(pat.client)).toEqual(['Pos B', 'Pos C', 'Pos A']);

      expect((await pat.client.put(`/projects/${b.id}/position`, { afterId: a.id })).status).toBe(200);
      expect(await order(pat.client)).toEqual(['Pos C', 'Pos A', 'Pos B']);

      expect(await order(sam.client)).toEqual(['Pos A', 'Pos B', 'Pos C']);

      // A new project goes to the end of the caller's order.
      await createProject(pat.client, 'Pos D');
      expect(await order(pat.client)).toEqual(['Pos C', 'Pos A', 'Pos B', 'Pos D']);
    });

    it('takes a missing afterId as first and refuses one that is not a project id', async () => {
      const pat = await registerPerson(t);
      await createProject(pat.client, 'P1');
      const p2 = await createProject(pat.client, 'P2');
      expect((await pat.client.put(`/projects/${p2.id}/position`, {})).status).toBe(200);
      expect((await pat.client.get('/projects')).body.projects.map((p) => p.name)).toEqual(['P2', 'P1']);
      expectError(await pat.client.put(`/projects/${p2.id}/position`, { afterId: 'first' }), 400, 'That is not a project id.');
    });
  });

  describe('rules', () => {
    it('starts empty, with the hash of the empty text and no update time', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Rules fresh');
      const res = await pat.client.get(`/projects/${p.id}/rules`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ rules: { text: '', hash: sha256(''), updatedAt: null } });
    });

    it('writes the rules, answers them with their SHA-256, and every member reads them', async () => {
      const owner = await registerPerson(t);
      const member = await registerPerson(t);
      const p = await createProject(owner.client, 'Rules written');
      await addMember(owner.client, p.id, member);
      const agent = await createAgent(owner.client, p.id);
      const text = 'Always write tests.\nNever push on Friday. ✓';

      const res = await owner.client.put(`/projects/${p.id}/rules`, { text: `  ${text}  ` });
      expect(res.status).toBe(200);
      const rules = { text, hash: sha256(text), updatedAt: expect.stringMatching(ISO) };
      expect(res.body).toEqual({ rules });
      expect(Math.abs(Date.parse(res.body.rules.updatedAt!) - Date.now())).toBeLessThan(60_000);

      for (const reader of [owner.client, member.client, agent.client]) {
        const read = await reader.get(`/projects/${p.id}/rules`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(res.body);
      }

      const lines = await projectFeed(owner.client, p.id);
      expect(lines).toEqual([{ kind: 'rules', taskId: null, actorId: owner.user.id, data: { hash: sha256(text), text } }]);
    });

    it('lets an admin write them and writes a line per change only', async () => {
      const owner = await registerPerson(t);
      const admin = await registerPerson(t);
      const p = await createProject(owner.client, 'Rules admin');
      await addMember(owner.client, p.id, admin, 'admin');
      expect((await admin.client.put(`/projects/${p.id}/rules`, { text: 'One' })).status).toBe(200);
      expect((await admin.client.put(`/projects/${p.id}/rules`, { text: 'One' })).status).toBe(200);
      expect((await admin.client.put(`/projects/${p.id}/rules`, { text: 'Two' })).body.rules.hash).toBe(sha256('Two'));
      const lines = (await projectFeed(admin.client, p.id)).filter((l) => l.kind === 'rules').map((l) => ({ actorId: l.actorId, text: l.data.text, hash: l.data.hash }));
      expect(lines).toEqual([
        { actorId: admin.user.id, text: 'One', hash: sha256('One') },
        { actorId: admin.user.id, text: 'Two', hash: sha256('Two') },
      ]);
    });

    it('takes 20000 characters and refuses more', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Rules long');
      const long = 'r'.repeat(20000);
      const ok = await pat.client.put(`/projects/${p.id}/rules`, { text: long });
      expect(ok.status).toBe(200);
      expect(ok.body.rules.hash).toBe(sha256(long));
      expectError(await pat.client.put(`/projects/${p.id}/rules`, { text: 'r'.repeat(20001) }), 400, 'Text is too long (max 20000 characters).');
      expectError(await pat.client.put(`/projects/${p.id}/rules`, { text: 12 }), 400, 'Text must be text.');
      expectError(await pat.client.put(`/projects/${p.id}/rules`, {}), 400, 'Text cannot be empty.');
      expect((await pat.client.get(`/projects/${p.id}/rules`)).body.rules.text).toBe(long);
      expect((await projectFeed(pat.client, p.id)).filter((l) => l.kind === 'rules')).toHaveLength(1);
    });

    it('clears the rules with an empty text', async () => {
      const pat = await registerPerson(t);
      const p = await createProject(pat.client, 'Rules cleared');
      await pat.client.put(`/projects/${p.id}/rules`, { text: 'Something' });
      const res = await pat.client.put(`/projects/${p.id}/rules`, { text: '' });
      expect(res.status).toBe(200);
      expect(res.body.rules).toEqual({ text: '', hash: sha256(''), updatedAt: expect.stringMatching(ISO) });
    });
  });
});
