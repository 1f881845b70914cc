import { randomUUID } from 'node:crypto';
import { expectError } from '../support/fixtures';
import { boardOf, projectFeed } from '../support/builders-b';
import {
  addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp, uniqueEmail,
} from '../support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const AVATAR = /^#(e0574d|d1913a|4f8a5b|3fb0c8|4b8fbe|6d5bd0|c2557a|b6763f|2f9e7a|7a8a2f|3d7fc1)$/;

const memberOf = (p: Person, role: string) => ({
  id: p.user.id,
  name: p.user.name,
  email: p.email,
  color: p.user.color,
  emoji: null,
  role,
  kind: 'human',
});

describe('members and invites', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Storage itself: for what no read shows (token rows, which are kept as digests only). */
  const one = async (sql: string, params: unknown[] = []) => (await t.sql.query(sql, params)).rows[0];
  /** A person's role in the project as its board lists it to `as`, or null when not a member. */
  const roleOf = async (as: Client, projectId: string, userId: string) =>
    (await boardOf(as, projectId)).members.find((m) => m.id === userId)?.role ?? null;
  /** The emails of the project's open invites, as its board lists them to `as`. */
  const invitesOf = async (as: Client, projectId: string) => (await boardOf(as, projectId)).invites.map((i) => i.email);

  /** An owner with a project, an admin and a plain member. */
  async function team(name = 'Team') {
    const owner = await registerPerson(t, 'Olive');
    const admin = await registerPerson(t, 'Adam');
    const member = await registerPerson(t, 'Mia');
    const project = await createProject(owner.client, name);
    await addMember(owner.client, project.id, admin, 'admin');
    await addMember(owner.client, project.id, member, 'member');
    return { owner, admin, member, project };
  }

  describe('POST /api/projects/{projectId}/members', () => {
    it('adds a person with an account as a member by default', async () => {
      const owner = await registerPerson(t, 'Olive');
      const sam = await registerPerson(t, 'Sam');
      const p = await createProject(owner.client, 'Adding');
      const res = await owner.client.post(`/projects/${p.id}/members`, { email: sam.email });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ member: memberOf(sam, 'member') });
      expect(res.body.member!.color).toMatch(AVATAR);
      expect(await roleOf(owner.client, p.id, sam.user.id)).toBe('member');
      expect((await sam.client.get('/projects')).body.projects).toEqual([{ ...p, role: 'member', taskCount: 0 }]);
      expect(await invitesOf(owner.client, p.id)).toEqual([]);
    });

    it('adds an admin, finds the account whatever the case of the email, and trims it', async () => {
      const owner = await registerPerson(t);
      const sam = await registerPerson(t, 'Sam');
      const p = await createProject(owner.client, 'Admin add');
      const res = await owner.client.post(`/projects/${p.id}/members`, { email: `  ${sam.email.toUpperCase()} `, role: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ member: memberOf(sam, 'admin') });
      expect(await roleOf(owner.client, p.id, sam.user.id)).toBe('admin');
    });

    it('lets an admin add members', async () => {
      const { admin, project } = await team('Admin adds');
      const newcomer = await registerPerson(t, 'New');
      const res = await admin.client.post(`/projects/${project.id}/members`, { email: newcomer.email });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ member: memberOf(newcomer, 'member') });
    });

    it('invites an email without an account, and registering turns the invite into a membership', async () => {
      const owner = await registerPerson(t);
      const p = await createProject(owner.client, 'Inviting');
      const email = uniqueEmail('Invitee');
      const res = await owner.client.post(`/projects/${p.id}/members`, { email, role: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ invite: { email: email.toLowerCase(), createdAt: expect.stringMatching(ISO), mailed: false, signupUrl: null } });
      expect(Math.abs(Date.parse(res.body.invite!.createdAt) - Date.now())).toBeLessThan(60_000);
      // The invite's role shows once the invitee registers (below).
      expect(await invitesOf(owner.client, p.id)).toEqual([email.toLowerCase()]);

      const invitee = await registerPerson(t, 'Invitee', email);
      expect((await invitee.client.get('/projects')).body.projects).toEqual([{ ...p, role: 'admin', taskCount: 0 }]);
      expect(await invitesOf(owner.client, p.id)).toEqual([]);
    });

    it('refuses a person who is already a member, the owner included', async () => {
      const { owner, admin, member, project } = await team('Already');
      for (const p of [member, admin, owner]) {
        expectError(await owner.client.post(`/projects/${project.id}/members`, { email: p.email }), 409, 'That person is already a member.');
      }
      expectError(
        await owner.client.post(`/projects/${project.id}/members`, { email: member.email, role: 'admin' }),
        409,
        'That person is already a member.',
      );
      expect(await roleOf(owner.client, project.id, member.user.id)).toBe('member');
      expect(await roleOf(owner.client, project.id, owner.user.id)).toBe('owner');
    });

    it('refuses an email that does not look like one', async () => {
      const owner = await registerPerson(t);
      const p = await createProject(owner.client, 'Bad email');
      for (const email of ['nope', 'a@b', 'a b@example.com', '@example.com', 'x@example.com@y']) {
        expectError(await owner.client.post(`/projects/${p.id}/members`, { email }), 400, 'That email address does not look correct.');
      }
      expectError(await owner.client.post(`/projects/${p.id}/members`, {}), 400, 'Email cannot be empty.');
      expectError(await owner.client.post(`/projects/${p.id}/members`, { email: 5 }), 400, 'Email must be text.');
      expectError(
        await owner.client.post(`/projects/${p.id}/members`, { email: `${'a'.repeat(190)}@example.com` }),
        400,
        'Email is too long (max 200 characters).',
      );
      expect(await invitesOf(owner.client, p.id)).toEqual([]);
    });

    it('refuses a role other than member or admin', async () => {
      const owner = await registerPerson(t);
      const sam = await registerPerson(t);
      const p = await createProject(owner.client, 'Bad role');
      for (const role of ['owner', 'boss', 'Admin', 1, null]) {
        expectError(await owner.client.post(`/projects/${p.id}/members`, { email: sam.email, role }), 400, 'A role is member or admin.');
        expectError(await owner.client.post(`/projects/${p.id}/members`, { email: uniqueEmail(), role }), 400, 'A role is member or admin.');
      }
      expect(await roleOf(owner.client, p.id, sam.user.id)).toBeNull();
      expect(await invitesOf(owner.client, p.id)).toEqual([]);
    });
  });

  describe('PATCH /api/projects/{projectId}/members/{userId}', () => {
    it('lets the owner make a member an admin and back', async () => {
      const { owner, member, project } = await team('Roles');
      const up = await owner.client.patch(`/projects/${project.id}/members/${member.user.id}`, { role: 'admin' });
      expect(up.status).toBe(200);
      expect(up.body).toEqual({ member: memberOf(member, 'admin') });
      expect(await roleOf(owner.client, project.id, member.user.id)).toBe('admin');
      const down = await owner.client.patch(`/projects/${project.id}/members/${member.user.id}`, { role: 'member' });
      expect(down.status).toBe(200);
      expect(down.body).toEqual({ member: memberOf(member, 'member') });
      expect(await roleOf(owner.client, project.id, member.user.id)).toBe('member');
    });

    it('lets an admin make a member an admin', async () => {
      const { admin, member, project } = await team('Admin promotes');
      const res = await admin.client.patch(`/projects/${project.id}/members/${member.user.id}`, { role: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ member: memberOf(member, 'admin') });
      expect(await roleOf(admin.client, project.id, member.user.id)).toBe('admin');
      // Now an admin, so taking it back is the owner's.
      expectError(
        await admin.client.patch(`/projects/${project.id}/members/${member.user.id}`, { role: 'member' }),
        403,
        "Only the owner can change an admin's role.",
      );
    });

    it('refuses an admin changing an admin\'s role, their own included', async () => {
      const { owner, admin, project } = await team('Admin vs admin');
      const other = await registerPerson(t);
      await addMember(owner.client, project.id, other, 'admin');
      expectError(
        await admin.client.patch(`/projects/${project.id}/members/${other.user.id}`, { role: 'member' }),
        403,
        "Only the owner can change an admin's role.",
      );
      expectError(
        await admin.client.patch(`/projects/${project.id}/members/${admin.user.id}`, { role: 'member' }),
        403,
        "Only the owner can change an admin's role.",
      );
      expect(await roleOf(owner.client, project.id, other.user.id)).toBe('admin');
      expect(await roleOf(owner.client, project.id, admin.user.id)).toBe('admin');
      // The owner may.
      const res = await owner.client.patch(`/projects/${project.id}/members/${other.user.id}`, { role: 'member' });
      expect(res.status).toBe(200);
      expect(res.body.member.role).toBe('member');
    });

    it('refuses to change the owner\'s role', async () => {
      const { owner, admin, project } = await team('Owner role');
      for (const [who, role] of [[owner, 'admin'], [owner, 'member'], [admin, 'member']] as const) {
        expectError(
          await who.client.patch(`/projects/${project.id}/members/${owner.user.id}`, { role }),
          400,
          'Hand the project over to change the owner.',
        );
      }
      expect(await roleOf(owner.client, project.id, owner.user.id)).toBe('owner');
    });

    it('answers 404 for somebody who is not a member', async () => {
      const { owner, project } = await team('Unknown');
      const stranger = await registerPerson(t);
      expectError(await owner.client.patch(`/projects/${project.id}/members/${stranger.user.id}`, { role: 'admin' }), 404, 'Member not found.');
      expectError(await owner.client.patch(`/projects/${project.id}/members/${randomUUID()}`, { role: 'admin' }), 404, 'Member not found.');
      expectError(await owner.client.patch(`/projects/${project.id}/members/not-an-id`, { role: 'admin' }), 400, 'That is not a member id.');
      expect(await roleOf(owner.client, project.id, stranger.user.id)).toBeNull();
    });

    it('refuses a role other than member or admin', async () => {
      const { owner, member, project } = await team('Role words');
      for (const role of ['owner', 'guest', undefined, 3]) {
        expectError(
          await owner.client.patch(`/projects/${project.id}/members/${member.user.id}`, role === undefined ? {} : { role }),
          400,
          'A role is member or admin.',
        );
      }
      expect(await roleOf(owner.client, project.id, member.user.id)).toBe('member');
    });
  });

  describe('DELETE /api/projects/{projectId}/members/{userId}', () => {
    it('lets an admin remove a member, who then no longer reaches the project', async () => {
      const { admin, member, project } = await team('Removal');
      const res = await admin.client.delete(`/projects/${project.id}/members/${member.user.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await roleOf(admin.client, project.id, member.user.id)).toBeNull();
      expectError(await member.client.get(`/projects/${project.id}/rules`), 404, 'Project not found.');
      expect((await member.client.get('/projects')).body).toEqual({ projects: [] });
      expectError(await admin.client.delete(`/projects/${project.id}/members/${member.user.id}`), 404, 'Member not found.');
    });

    it('lets the owner remove an admin', async () => {
      const { owner, admin, project } = await team('Owner removes');
      expect((await owner.client.delete(`/projects/${project.id}/members/${admin.user.id}`)).status).toBe(200);
      expect(await roleOf(owner.client, project.id, admin.user.id)).toBeNull();
    });

    it('lets a member or an admin leave', async () => {
      const { owner, admin, member, project } = await team('Leaving');
      const res = await member.client.delete(`/projects/${project.id}/members/${member.user.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await roleOf(admin.client, project.id, member.user.id)).toBeNull();
      expect((await admin.client.delete(`/projects/${project.id}/members/${admin.user.id}`)).status).toBe(200);
      expect(await roleOf(owner.client, project.id, admin.user.id)).toBeNull();
    });

    it('refuses a member removing somebody else', async () => {
      const { owner, admin, member, project } = await team('Member removes');
      const other = await registerPerson(t);
      await addMember(owner.client, project.id, other);
      for (const target of [other, admin]) {
        expectError(
          await member.client.delete(`/projects/${project.id}/members/${target.user.id}`),
          403,
          'Only the owner or an admin can remove members.',
        );
        expect(await roleOf(owner.client, project.id, target.user.id)).not.toBeNull();
      }
    });

    it('refuses an admin removing another admin', async () => {
      const { owner, admin, project } = await team('Admin removes admin');
      const other = await registerPerson(t);
      await addMember(owner.client, project.id, other, 'admin');
      expectError(await admin.client.delete(`/projects/${project.id}/members/${other.user.id}`), 403, 'Only the owner can remove an admin.');
      expect(await roleOf(owner.client, project.id, other.user.id)).toBe('admin');
    });

    it('refuses to remove the owner, even by themself', async () => {
      const { owner, admin, project } = await team('Owner stays');
      const sentence = 'The owner cannot be removed. Hand the project over first.';
      expectError(await admin.client.delete(`/projects/${project.id}/members/${owner.user.id}`), 400, sentence);
      expectError(await owner.client.delete(`/projects/${project.id}/members/${owner.user.id}`), 400, sentence);
      expect(await roleOf(owner.client, project.id, owner.user.id)).toBe('owner');
    });

    it('removes an agent and its tokens', async () => {
      const { admin, owner, project } = await team('Agent removal');
      const agent = await createAgent(owner.client, project.id);
      expect((await agent.client.get(`/projects/${project.id}/rules`)).status).toBe(200);
      expect((await admin.client.delete(`/projects/${project.id}/members/${agent.agent.id}`)).status).toBe(200);
      // Storage itself: the tokens are gone, not only refused (the refusal is checked below).
      expect(await one('SELECT count(*)::int AS n FROM agent_tokens WHERE agent_id = $1', [agent.agent.id])).toEqual({ n: 0 });
      expectError(await agent.client.get(`/projects/${project.id}/rules`), 401, 'That token is not valid any more.');
    });

    it('answers 404 for somebody who is not a member', async () => {
      const { owner, project } = await team('Remove unknown');
      const stranger = await registerPerson(t);
      expectError(await owner.client.delete(`/projects/${project.id}/members/${stranger.user.id}`), 404, 'Member not found.');
      expectError(await owner.client.delete(`/projects/${project.id}/members/zzz`), 400, 'That is not a member id.');
    });
  });

  describe('DELETE /api/projects/{projectId}/invites/{email}', () => {
    it('removes the invite, so registering afterwards gives no membership', async () => {
      const { owner, admin, project } = await team('Uninvite');
      const email = uniqueEmail('gone');
      const kept = uniqueEmail('kept');
      await owner.client.post(`/projects/${project.id}/members`, { email });
      await owner.client.post(`/projects/${project.id}/members`, { email: kept });
      const res = await admin.client.delete(`/projects/${project.id}/invites/${encodeURIComponent(email)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await invitesOf(owner.client, project.id)).toEqual([kept]);

      const late = await registerPerson(t, 'Late', email);
      expect((await late.client.get('/projects')).body).toEqual({ projects: [] });
      expect(await roleOf(owner.client, project.id, late.user.id)).toBeNull();
    });

    it('ignores the case of the email', async () => {
      const { owner, project } = await team('Uninvite case');
      const email = uniqueEmail('case');
      await owner.client.post(`/projects/${project.id}/members`, { email });
      expect((await owner.client.delete(`/projects/${project.id}/invites/${encodeURIComponent(email.toUpperCase())}`)).status).toBe(200);
      expect(await invitesOf(owner.client, project.id)).toEqual([]);
    });
  });

  describe('POST /api/projects/{projectId}/members/{userId}/reset', () => {
    it('lets an admin make links for members only, never for the owner or another admin', async () => {
      const { owner, admin: adminA, member: plain, project: p } = await team('Reset gates');
      const adminB = await registerPerson(t, 'Bea');
      await addMember(owner.client, p.id, adminB, 'admin');
      const sentence = 'Only the owner can make a reset link for an admin or the owner.';
      expectError(await adminA.client.post(`/projects/${p.id}/members/${owner.user.id}/reset`), 403, sentence);
      expectError(await adminA.client.post(`/projects/${p.id}/members/${adminB.user.id}/reset`), 403, sentence);
      expect((await adminA.client.post(`/projects/${p.id}/members/${plain.user.id}/reset`)).status).toBe(200);
      expect((await owner.client.post(`/projects/${p.id}/members/${adminB.user.id}/reset`)).status).toBe(200);
      expect(await one('SELECT count(*)::int AS n FROM reset_tokens WHERE user_id = $1', [owner.user.id])).toEqual({ n: 0 });
    });

    it('makes a one-time link for a person and writes a reset line', async () => {
      const { owner, member, project } = await team('Resetting');
      const before = Date.now();
      const res = await owner.client.post(`/projects/${project.id}/members/${member.user.id}/reset`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ token: expect.stringMatching(/^svcr_[A-Za-z0-9_-]{43}$/), url: null, expiresAt: expect.stringMatching(ISO) });
      const day = 24 * 60 * 60 * 1000;
      expect(Date.parse(res.body.expiresAt)).toBeGreaterThanOrEqual(before + day - 5_000);
      expect(Date.parse(res.body.expiresAt)).toBeLessThanOrEqual(Date.now() + day + 5_000);

      const lines = await projectFeed(owner.client, project.id);
      expect(lines).toEqual([
        { kind: 'reset', taskId: null, actorId: owner.user.id, data: { forUserId: member.user.id, forName: member.user.name } },
      ]);
      // Only a digest is kept.
      expect(await one('SELECT count(*)::int AS n FROM reset_tokens WHERE digest = $1', [res.body.token])).toEqual({ n: 0 });

      // The link works once.
      const anon = new Client(t.api);
      const reset = await anon.post('/auth/reset', { token: res.body.token, password: 'brand new password' });
      expect(reset.status).toBe(200);
      expect(reset.body).toEqual({ ok: true });
      expect((await new Client(t.api).post('/auth/login', { email: member.email, password: 'brand new password' })).status).toBe(200);
      expect((await new Client(t.api).post('/auth/reset', { token: res.body.token, password: 'another password' })).status).toBe(400);
    });

    it('lets an admin make one, and a newer link voids the older', async () => {
      const { admin, member, project } = await team('Reset twice');
      const first = await admin.client.post(`/projects/${project.id}/members/${member.user.id}/reset`);
      const second = await admin.client.post(`/projects/${project.id}/members/${member.user.id}/reset`);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.token).not.toBe(first.body.token);
      expectError(
        await new Client(t.api).post('/auth/reset', { token: first.body.token, password: 'whatever password' }),
        400,
        'This link does not work any more. Ask the owner of your project for a new one.',
      );
      expect((await new Client(t.api).post('/auth/reset', { token: second.body.token, password: 'whatever password' })).status).toBe(200);
      expect((await projectFeed(admin.client, project.id)).filter((l) => l.kind === 'reset')).toHaveLength(2);
    });

    it('refuses an agent and somebody who is not a member', async () => {
      const { owner, project } = await team('Reset refusals');
      const agent = await createAgent(owner.client, project.id);
      const stranger = await registerPerson(t);
      expectError(
        await owner.client.post(`/projects/${project.id}/members/${agent.agent.id}/reset`),
        400,
        'An agent signs in with a token, so it has no password to reset.',
      );
      expectError(await owner.client.post(`/projects/${project.id}/members/${stranger.user.id}/reset`), 404, 'Member not found.');
      expectError(await owner.client.post(`/projects/${project.id}/members/nope/reset`), 400, 'That is not a member id.');
      expect(await projectFeed(owner.client, project.id)).toEqual([]);
      expect(await one('SELECT count(*)::int AS n FROM reset_tokens WHERE user_id = $1', [stranger.user.id])).toEqual({ n: 0 });
    });

    it('builds the url from SERVICE_URL when it is set', async () => {
      const other = await startTestApp({ env: { SERVICE_URL: 'https://board.example.com/' } });
      try {
        const owner = await registerPerson(other);
        const member = await registerPerson(other);
        const p = await createProject(owner.client, 'With url');
        await addMember(owner.client, p.id, member);
        const res = await owner.client.post(`/projects/${p.id}/members/${member.user.id}/reset`);
        expect(res.status).toBe(200);
        expect(res.body.url).toBe(`https://board.example.com/reset?token=${res.body.token}`);
      } finally {
        await other.close();
      }
    });
  });
});
