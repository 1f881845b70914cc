import { randomUUID } from 'node:crypto';
import { expectError } from '../support/fixtures';
import { Agent, anAgent, aTeam } from '../support/builders';
import { anAdmin, tokenIdOf } from '../support/builders-d';
import { addMember, Client, createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { ProjectAnswer } from '../support/answers';

const SIGN_IN = 'Sign in first, or send an agent token.';
const TOKEN_INVALID = 'That token is not valid any more.';
const OTHER_PROJECT = 'That token belongs to another project.';
const NOT_FOUND = 'Project not found.';
const HUMAN = 'Only a person can do this.';

/** Ids a project route needs besides the project. */
interface Ids {
  projectId: string;
  userId: string;
  agentId: string;
  tokenId: string;
  email: string;
}

interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  gate: 'member' | 'humanMember' | 'admin' | 'owner';
  /** The {what} of the admin and owner sentences. */
  what?: string;
}

const ROUTES: Route[] = [
  { method: 'GET', path: (i) => `/projects/${i.projectId}/rules`, gate: 'member' },
  { method: 'PUT', path: (i) => `/projects/${i.projectId}/position`, body: () => ({ afterId: null }), gate: 'humanMember' },
  { method: 'DELETE', path: (i) => `/projects/${i.projectId}/members/${i.userId}`, gate: 'humanMember' },
  { method: 'PATCH', path: (i) => `/projects/${i.projectId}`, body: () => ({ name: 'Hijacked' }), gate: 'admin', what: 'change the project settings' },
  { method: 'PUT', path: (i) => `/projects/${i.projectId}/rules`, body: () => ({ text: 'Obey me.' }), gate: 'admin', what: 'change the agent rules' },
  { method: 'POST', path: (i) => `/projects/${i.projectId}/members`, body: () => ({ email: 'intruder@example.com' }), gate: 'admin', what: 'add members' },
  { method: 'PATCH', path: (i) => `/projects/${i.projectId}/members/${i.userId}`, body: () => ({ role: 'admin' }), gate: 'admin', what: 'change roles' },
  { method: 'DELETE', path: (i) => `/projects/${i.projectId}/invites/${encodeURIComponent(i.email)}`, gate: 'admin', what: 'remove invites' },
  { method: 'POST', path: (i) => `/projects/${i.projectId}/members/${i.userId}/reset`, gate: 'admin', what: 'make reset links' },
  { method: 'POST', path: (i) => `/projects/${i.projectId}/agents`, body: () => ({ name: 'Intruder' }), gate: 'admin', what: 'add agents' },
  { method: 'PATCH', path: (i) => `/projects/${i.projectId}/agents/${i.agentId}`, body: () => ({ name: 'Renamed' }), gate: 'admin', what: 'change agents' },
  { method: 'DELETE', path: (i) => `/projects/${i.projectId}/agents/${i.agentId}`, gate: 'admin', what: 'remove agents' },
  { method: 'GET', path: (i) => `/projects/${i.projectId}/tokens`, gate: 'admin', what: 'see tokens' },
  { method: 'POST', path: (i) => `/projects/${i.projectId}/agents/${i.agentId}/tokens`, gate: 'admin', what: 'make tokens' },
  { method: 'DELETE', path: (i) => `/projects/${i.projectId}/tokens/${i.tokenId}`, gate: 'admin', what: 'revoke tokens' },
  { method: 'DELETE', path: (i) => `/projects/${i.projectId}`, gate: 'owner', what: 'delete the project' },
  { method: 'POST', path: (i) => `/projects/${i.projectId}/hand-over`, body: (i) => ({ userId: i.userId }), gate: 'owner', what: 'hand the project over' },
];

const label = (r: Route) => `${r.method} ${r.path({ projectId: ':p', userId: ':u', agentId: ':a', tokenId: ':t', email: ':e' })}`;
const call = (client: Client, r: Route, ids: Ids) => client.request(r.method, r.path(ids), r.body?.(ids));

describe('authentication and gates', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let stranger: Person;
  let project: ProjectAnswer;
  let other: ProjectAnswer;
  let agent: Agent;
  let otherAgent: Agent;
  let ids: Ids;

  beforeAll(async () => {
    t = await startTestApp();
    ({ owner, member, outsider: stranger, project, agent } = await aTeam(t, { name: 'Gated', key: 'GATE' }));
    admin = await anAdmin(t, owner.client, project.id, 'Adam');
    other = await createProject(owner.client, 'Other', 'OTHER');
    otherAgent = await anAgent(owner.client, other.id, 'Elsewhere');
    const email = 'pending-gate@example.com';
    expect((await owner.client.post(`/projects/${project.id}/members`, { email })).status).toBe(201);
    const tokenId = await tokenIdOf(owner.client, project.id, agent.agent.id);
    // The member routes aim at the owner, so a refused call could only do harm if the gate failed.
    ids = { projectId: project.id, userId: owner.user.id, agentId: agent.agent.id, tokenId, email };
  });
  afterAll(() => t.close());

  /** Everything the refused calls could have touched (storage itself: positions, tokens and reset links included, which no one read shows). */
  async function snapshot() {
    const q = async (sql: string) => (await t.sql.query(sql, [project.id])).rows;
    return {
      project: await q('SELECT name, key, owner_id, done_when, releases, sprints, rules_text FROM projects WHERE id = $1'),
      members: await q('SELECT user_id, role, position FROM members WHERE project_id = $1 ORDER BY user_id'),
      invites: await q('SELECT email, role FROM invites WHERE project_id = $1 ORDER BY email'),
      tokens: await q('SELECT id, agent_id FROM agent_tokens WHERE project_id = $1 ORDER BY id'),
      agents: await q('SELECT id, name FROM users WHERE project_id = $1 ORDER BY id'),
      activity: await q('SELECT count(*)::int AS n FROM activity WHERE project_id = $1'),
      resets: (await t.sql.query('SELECT count(*)::int AS n FROM reset_tokens')).rows,
    };
  }

  describe('credentials', () => {
    it('answers every route 401 without a credential', async () => {
      const anon = new Client(t.api);
      expectError(await anon.get('/projects'), 401, SIGN_IN, 'GET /projects');
      expectError(await anon.post('/projects', { name: 'Nope' }), 401, SIGN_IN, 'POST /projects');
      expectError(await anon.get('/agent/me'), 401, SIGN_IN, 'GET /agent/me');
      for (const r of ROUTES) expectError(await call(anon, r, ids), 401, SIGN_IN, label(r));
      expectError(await anon.get(`/projects/${randomUUID()}/rules`), 401, SIGN_IN);
      // The credential is checked before the project id.
      expectError(await anon.get('/projects/not-a-uuid/rules'), 401, SIGN_IN);
    });

    it('answers a made-up svc_ token 401 on every route, even beside a good cookie', async () => {
      const fake = owner.client.withToken('svc_' + 'A'.repeat(43));
      expectError(await fake.get('/projects'), 401, TOKEN_INVALID);
      expectError(await fake.get('/agent/me'), 401, TOKEN_INVALID);
      for (const r of ROUTES) expectError(await call(fake, r, ids), 401, TOKEN_INVALID, label(r));
      // A token is checked first: the cookie does not rescue a bad one.
      const withCookie = await owner.client.get('/projects', { headers: { authorization: 'Bearer svc_madeup' } });
      expectError(withCookie, 401, TOKEN_INVALID);
      expectError(await owner.client.get('/projects', { headers: { authorization: 'Bearer svc_' } }), 401, TOKEN_INVALID);
    });

    it('ignores a bearer without the svc_ prefix and uses the cookie', async () => {
      for (const authorization of ['Bearer abc123', `Bearer ${agent.token.slice(4)}`, 'Bearer SVC_x', 'Basic dXNlcjpwYXNz']) {
        const res = await owner.client.get('/projects', { headers: { authorization } });
        expect([authorization, res.status]).toEqual([authorization, 200]);
        expect(res.body.projects.map((p) => p.id)).toEqual([project.id, other.id]);
        const rules = await member.client.get(`/projects/${project.id}/rules`, { headers: { authorization } });
        expect(rules.status).toBe(200);
        // Without a cookie there is no credential at all.
        expectError(await new Client(t.api).get('/projects', { headers: { authorization } }), 401, SIGN_IN, authorization);
      }
    });

    it('takes a good token before the cookie', async () => {
      const res = await owner.client.get('/projects', { headers: { authorization: `Bearer ${agent.token}` } });
      expectError(res, 403, HUMAN);
      const me = await owner.client.get('/agent/me', { headers: { authorization: `Bearer ${agent.token}` } });
      expect(me.status).toBe(200);
      expect(me.body.agent.id).toBe(agent.agent.id);
    });

    it('answers a signed-out session 401', async () => {
      const pat = await registerPerson(t);
      const cookie = pat.client.cookie;
      expect((await pat.client.post('/auth/logout')).status).toBe(200);
      const stale = new Client(t.api);
      stale.cookie = cookie;
      expectError(await stale.get('/projects'), 401, SIGN_IN);
    });

    it('ignores an agent token on the authentication routes', async () => {
      expectError(await agent.client.get('/auth/me'), 401, SIGN_IN);
    });
  });

  describe('the project check', () => {
    it('answers a token of another project 403 on every route of this one', async () => {
      for (const r of ROUTES) expectError(await call(otherAgent.client, r, ids), 403, OTHER_PROJECT, label(r));
    });

    it('answers a token on a project that does not exist 404', async () => {
      const gone = { ...ids, projectId: randomUUID() };
      for (const r of ROUTES) expectError(await call(agent.client, r, gone), 404, NOT_FOUND, label(r));
    });

    it('answers a person who is not a member 404 on every route, and on a project that does not exist', async () => {
      const before = await snapshot();
      for (const r of ROUTES) expectError(await call(stranger.client, r, ids), 404, NOT_FOUND, label(r));
      const gone = { ...ids, projectId: randomUUID() };
      for (const r of ROUTES) expectError(await call(owner.client, r, gone), 404, NOT_FOUND, label(r));
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a project id that is not a UUID', async () => {
      const bad = { ...ids, projectId: 'nope' };
      for (const r of ROUTES) expectError(await call(owner.client, r, bad), 400, 'That is not a project id.', label(r));
    });
  });

  describe('human-only routes', () => {
    it('refuses an agent token on the routes of a person', async () => {
      expectError(await agent.client.get('/projects'), 403, HUMAN);
      expectError(await agent.client.post('/projects', { name: 'Robot project' }), 403, HUMAN);
      expectError(await agent.client.put(`/projects/${project.id}/position`, { afterId: null }), 403, HUMAN);
      expectError(await agent.client.delete(`/projects/${project.id}/members/${agent.agent.id}`), 403, HUMAN);
      expectError(await agent.client.delete(`/projects/${project.id}/members/${member.user.id}`), 403, HUMAN);
      // Storage itself: a project the agent made would be seen by no one who may list projects.
      expect((await t.sql.query(`SELECT count(*)::int AS n FROM projects WHERE name = 'Robot project'`)).rows).toEqual([{ n: 0 }]);
      const board = await owner.client.get(`/projects/${project.id}/board`);
      expect(board.body.members.filter((m) => m.id === agent.agent.id)).toHaveLength(1);
    });

    it('lets an agent read the rules (any member)', async () => {
      const res = await agent.client.get(`/projects/${project.id}/rules`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.rules).sort()).toEqual(['hash', 'text', 'updatedAt']);
    });
  });

  describe('owner and admins', () => {
    const adminRoutes = ROUTES.filter((r) => r.gate === 'admin');
    const ownerRoutes = ROUTES.filter((r) => r.gate === 'owner');

    it('covers every route of the table', () => {
      expect(adminRoutes).toHaveLength(12);
      expect(ownerRoutes).toHaveLength(2);
    });

    it.each(adminRoutes.map((r) => [label(r), r] as const))('refuses a plain member on %s with its sentence', async (_, r) => {
      const before = await snapshot();
      expectError(await call(member.client, r, ids), 403, `Only the owner or an admin can ${r.what}.`);
      expect(await snapshot()).toEqual(before);
    });

    // The person gate comes before the role gate (the contract's gate order): an agent token is
    // told it is not a person, not that its role is too low (issue 13).
    it.each(adminRoutes.map((r) => [label(r), r] as const))('refuses an agent token on %s as not a person', async (_, r) => {
      const before = await snapshot();
      expectError(await call(agent.client, r, ids), 403, HUMAN);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a plain member removing somebody else', async () => {
      expectError(
        await member.client.delete(`/projects/${project.id}/members/${admin.user.id}`),
        403,
        'Only the owner or an admin can remove members.',
      );
    });

    it.each(ownerRoutes.map((r) => [label(r), r] as const))('refuses an admin, a member and an agent on %s', async (_, r) => {
      const before = await snapshot();
      for (const who of [admin.client, member.client]) {
        expectError(await call(who, r, ids), 403, `Only the owner can ${r.what}.`);
      }
      expectError(await call(agent.client, r, ids), 403, HUMAN);
      expect(await snapshot()).toEqual(before);
    });

    it('spells the owner-only sentences out', () => {
      expect(ownerRoutes.map((r) => `Only the owner can ${r.what}.`)).toEqual([
        'Only the owner can delete the project.',
        'Only the owner can hand the project over.',
      ]);
    });

    it('lets an admin through every owner-and-admins route', async () => {
      const p = await createProject(owner.client, 'Admin passes');
      await addMember(owner.client, p.id, admin, 'admin');
      await addMember(owner.client, p.id, member, 'member');
      const a = await createAgent(owner.client, p.id);
      await owner.client.post(`/projects/${p.id}/members`, { email: 'admin-pass@example.com' });
      const tokenId = (await owner.client.get(`/projects/${p.id}/tokens`)).body.tokens[0].id;
      const mine: Ids = { projectId: p.id, userId: member.user.id, agentId: a.agent.id, tokenId, email: 'admin-pass@example.com' };
      // Ordered so that no call takes away what a later one needs.
      // Reset links before roles: a member made admin takes no link from another admin.
      const order = ['change the project settings', 'change the agent rules', 'add members', 'make reset links', 'change roles',
        'remove invites', 'add agents', 'change agents', 'see tokens', 'make tokens', 'revoke tokens', 'remove agents'];
      for (const what of order) {
        const r = adminRoutes.find((x) => x.what === what)!;
        const body = what === 'add members' ? { email: 'fresh-admin-pass@example.com' } : r.body?.(mine);
        const res = await admin.client.request(r.method, r.path(mine), body);
        expect([what, res.status]).toEqual([what, r.method === 'POST' && ['add members', 'add agents', 'make tokens'].includes(what) ? 201 : 200]);
      }
    });

    it('answers an agent that was made an admin with the person gate', async () => {
      const p = await createProject(owner.client, 'Robot admin');
      const a = await createAgent(owner.client, p.id);
      const promoted = await owner.client.patch(`/projects/${p.id}/members/${a.agent.id}`, { role: 'admin' });
      expect(promoted.status).toBe(200);
      expect(promoted.body.member).toMatchObject({ id: a.agent.id, role: 'admin', kind: 'agent' });
      const tokenId = (await owner.client.get(`/projects/${p.id}/tokens`)).body.tokens[0].id;
      const mine: Ids = { projectId: p.id, userId: owner.user.id, agentId: a.agent.id, tokenId, email: 'x@example.com' };
      for (const r of adminRoutes) expectError(await call(a.client, r, mine), 403, HUMAN, label(r));
      for (const r of ownerRoutes) expectError(await call(a.client, r, mine), 403, HUMAN, label(r));
      expect((await owner.client.get(`/projects/${p.id}/tokens`)).body.tokens).toHaveLength(1);
    });
  });

  describe('cross-site writes', () => {
    it('refuses a cookie write from another origin and writes nothing', async () => {
      const res = await owner.client.patch(`/projects/${project.id}`, { name: 'From afar' }, { headers: { origin: 'https://evil.example' } });
      expectError(res, 403, 'Cross-site requests are refused.');
      expect((await owner.client.get(`/projects/${project.id}/board`)).body.project.name).toBe('Gated');
    });

    it('does not check the origin of a request with an agent token', async () => {
      const res = await agent.client.get(`/projects/${project.id}/rules`, { headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(200);
    });
  });
});
