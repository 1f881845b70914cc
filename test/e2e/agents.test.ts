import { createHash, randomUUID } from 'node:crypto';
import { expectError, expectStatus } from '../support/fixtures';
import { addMember, Client, createAgent, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^svc_[A-Za-z0-9_-]{43}$/;
const AVATAR = /^#(e0574d|d1913a|4f8a5b|3fb0c8|4b8fbe|6d5bd0|c2557a|b6763f|2f9e7a|7a8a2f|3d7fc1)$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('agents and tokens', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  // Storage itself, where a test must see rows no route shows (a user row kept, a token's digest).
  const rows = async (sql: string, params: unknown[] = []) => (await t.sql.query(sql, params)).rows;
  /** The members of a project as its board lists them (as its owner). */
  const members = async (owner: { client: Client }, projectId: string) =>
    (await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200)).members;
  /** The members of a project as `{ id, kind, role }`. */
  const roles = async (owner: { client: Client }, projectId: string) =>
    (await members(owner, projectId)).map((m) => ({ id: m.id, kind: m.kind, role: m.role }));

  async function ownerWithProject(name = 'Agents') {
    const owner = await registerPerson(t, 'Olive');
    const project = await createProject(owner.client, name);
    return { owner, project };
  }

  describe('POST /api/projects/{projectId}/agents', () => {
    it('adds an agent member and answers its token once', async () => {
      const { owner, project } = await ownerWithProject();
      const res = await owner.client.post(`/projects/${project.id}/agents`, { name: '  Robo  ' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        agent: { id: expect.stringMatching(UUID), name: 'Robo', email: null, color: expect.stringMatching(AVATAR), emoji: null, role: 'member', kind: 'agent' },
        token: expect.stringMatching(TOKEN),
      });
      const agentId = res.body.agent.id;
      const listed = (await members(owner, project.id)).filter((m) => m.id === agentId);
      expect(listed.map((m) => ({ kind: m.kind, email: m.email, role: m.role }))).toEqual([{ kind: 'agent', email: null, role: 'member' }]);
      // The agent belongs to this project: its token says so.
      expect((await owner.client.withToken(res.body.token).get('/agent/me')).body.project?.id).toBe(project.id);
    });

    it('takes a colour and an emoji', async () => {
      const { owner, project } = await ownerWithProject();
      const res = await owner.client.post(`/projects/${project.id}/agents`, { name: 'Fancy', color: '#6D5BD0', emoji: '🤖' });
      expect(res.status).toBe(201);
      expect(res.body.agent).toMatchObject({ name: 'Fancy', color: '#6d5bd0', emoji: '🤖' });
    });

    it('lets an admin add one', async () => {
      const { owner, project } = await ownerWithProject();
      const admin = await registerPerson(t);
      await addMember(owner.client, project.id, admin, 'admin');
      const res = await admin.client.post(`/projects/${project.id}/agents`, { name: 'By admin' });
      expect(res.status).toBe(201);
      expect(res.body.agent.name).toBe('By admin');
    });

    it('refuses a bad name, colour or emoji and adds nothing', async () => {
      const { owner, project } = await ownerWithProject();
      const post = (body: unknown) => owner.client.post(`/projects/${project.id}/agents`, body);
      expectError(await post({}), 400, 'Name cannot be empty.');
      expectError(await post({ name: '  ' }), 400, 'Name cannot be empty.');
      expectError(await post({ name: 'a'.repeat(81) }), 400, 'Name is too long (max 80 characters).');
      expectError(await post({ name: 7 }), 400, 'Name must be text.');
      expectError(await post({ name: 'Grey', color: '#8b8f98' }), 400, 'Pick one of the colours on offer.');
      expectError(await post({ name: 'Red', color: 'red' }), 400, 'Pick one of the colours on offer.');
      expectError(await post({ name: 'Faces', emoji: '🤖🤖' }), 400, 'A face is one emoji, or null for your initials.');
      expectError(await post({ name: 'Letters', emoji: 'ab' }), 400, 'A face is one emoji, or null for your initials.');
      // Storage itself: an agent's user row made without its membership would show on no board.
      expect(await rows(`SELECT id FROM users WHERE project_id = $1`, [project.id])).toEqual([]);
      expect(await roles(owner, project.id)).toEqual([{ id: owner.user.id, kind: 'human', role: 'owner' }]);
    });
  });

  describe('the token', () => {
    it('works as a Bearer on GET /api/agent/me', async () => {
      const { owner, project } = await ownerWithProject('Agent home');
      const { client, agent } = await createAgent(owner.client, project.id, 'Robo');
      const res = await client.get('/agent/me');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        agent: { id: agent.id, name: 'Robo', color: agent.color, emoji: null },
        project: { id: project.id, name: 'Agent home', key: project.key, role: 'member', waiting: 0 },
      });
    });

    it('answers a person on GET /api/agent/me with 403', async () => {
      const { owner } = await ownerWithProject();
      expectError(await owner.client.get('/agent/me'), 403, 'Only an agent can do this.');
    });

    // Storage itself: what the table keeps of a token.
    it('is stored only as its SHA-256 digest', async () => {
      const { owner, project } = await ownerWithProject();
      const { token, agent } = await createAgent(owner.client, project.id);
      const stored = await rows('SELECT * FROM agent_tokens WHERE agent_id = $1', [agent.id]);
      expect(stored).toHaveLength(1);
      expect(stored[0].digest).toBe(sha256(token));
      expect(stored[0].digest).not.toBe(token);
      expect(stored[0].prefix).toBe(token.slice(0, 8));
      for (const value of Object.values(stored[0])) {
        if (typeof value === 'string') expect(value).not.toContain(token.slice(8));
      }
      const anywhere = await rows(
        `SELECT count(*)::int AS n FROM agent_tokens t WHERE position($1 in t::text) > 0`,
        [token],
      );
      expect(anywhere).toEqual([{ n: 0 }]);
    });
  });

  describe('PATCH /api/projects/{projectId}/agents/{agentId}', () => {
    it('changes name, colour and emoji', async () => {
      const { owner, project } = await ownerWithProject();
      const { client, agent } = await createAgent(owner.client, project.id, 'Before');
      const res = await owner.client.patch(`/projects/${project.id}/agents/${agent.id}`, { name: 'After', color: '#2f9e7a', emoji: '🦾' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        agent: { id: agent.id, name: 'After', email: null, color: '#2f9e7a', emoji: '🦾', role: 'member', kind: 'agent' },
      });
      expect((await client.get('/agent/me')).body.agent).toEqual({ id: agent.id, name: 'After', color: '#2f9e7a', emoji: '🦾' });

      const cleared = await owner.client.patch(`/projects/${project.id}/agents/${agent.id}`, { emoji: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.agent).toMatchObject({ name: 'After', color: '#2f9e7a', emoji: null });

      const nothing = await owner.client.patch(`/projects/${project.id}/agents/${agent.id}`, {});
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(cleared.body);
    });

    it('refuses bad fields and changes nothing', async () => {
      const { owner, project } = await ownerWithProject();
      const { agent } = await createAgent(owner.client, project.id, 'Stable');
      const patch = (body: unknown) => owner.client.patch(`/projects/${project.id}/agents/${agent.id}`, body);
      expectError(await patch({ name: '' }), 400, 'Name cannot be empty.');
      expectError(await patch({ name: 'x'.repeat(81) }), 400, 'Name is too long (max 80 characters).');
      expectError(await patch({ name: 'Fine', color: '#123456' }), 400, 'Pick one of the colours on offer.');
      expectError(await patch({ emoji: 'x' }), 400, 'A face is one emoji, or null for your initials.');
      const kept = (await members(owner, project.id)).filter((m) => m.id === agent.id);
      expect(kept.map((m) => ({ name: m.name, color: m.color }))).toEqual([{ name: 'Stable', color: agent.color }]);
    });

    it('answers 404 for a person, an unknown id or an agent of another project', async () => {
      const { owner, project } = await ownerWithProject();
      const elsewhere = await createProject(owner.client, 'Elsewhere');
      const foreign = await createAgent(owner.client, elsewhere.id);
      for (const id of [owner.user.id, randomUUID(), foreign.agent.id]) {
        expectError(await owner.client.patch(`/projects/${project.id}/agents/${id}`, { name: 'X' }), 404, 'Agent not found.');
      }
      expect((await members(owner, elsewhere.id)).filter((m) => m.id === foreign.agent.id).map((m) => m.name)).toEqual(['Robo']);
    });
  });

  describe('DELETE /api/projects/{projectId}/agents/{agentId}', () => {
    it('removes the agent and every token of it stops working', async () => {
      const { owner, project } = await ownerWithProject();
      const { client, agent, token } = await createAgent(owner.client, project.id);
      const second = await owner.client.post(`/projects/${project.id}/agents/${agent.id}/tokens`);
      expect((await client.get('/agent/me')).status).toBe(200);

      const res = await owner.client.delete(`/projects/${project.id}/agents/${agent.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });

      for (const bearer of [token, second.body.token]) {
        expectError(await client.withToken(bearer).get('/agent/me'), 401, 'That token is not valid any more.');
        expectError(await client.withToken(bearer).get(`/projects/${project.id}/rules`), 401, 'That token is not valid any more.');
      }
      // Storage itself: the token rows are gone, not only refused.
      expect(await rows('SELECT id FROM agent_tokens WHERE agent_id = $1', [agent.id])).toEqual([]);
      expect(await roles(owner, project.id)).toEqual([{ id: owner.user.id, kind: 'human', role: 'owner' }]);
      // The user row stays, so its comments and runs keep their author (storage itself: no route lists a removed agent).
      expect(await rows('SELECT kind, name FROM users WHERE id = $1', [agent.id])).toEqual([{ kind: 'agent', name: 'Robo' }]);
      expect((await owner.client.get(`/projects/${project.id}/tokens`)).body).toEqual({ tokens: [] });

      expectError(await owner.client.delete(`/projects/${project.id}/agents/${agent.id}`), 404, 'Agent not found.');
      expectError(await owner.client.post(`/projects/${project.id}/agents/${agent.id}/tokens`), 404, 'Agent not found.');
    });

    it('answers 404 for an unknown agent', async () => {
      const { owner, project } = await ownerWithProject();
      expectError(await owner.client.delete(`/projects/${project.id}/agents/${randomUUID()}`), 404, 'Agent not found.');
      expectError(await owner.client.delete(`/projects/${project.id}/agents/${owner.user.id}`), 404, 'Agent not found.');
      expectError(await owner.client.delete(`/projects/${project.id}/agents/robo`), 400, 'That is not an agent id.');
      expect(await roles(owner, project.id)).toEqual([{ id: owner.user.id, kind: 'human', role: 'owner' }]);
    });
  });

  describe('tokens', () => {
    it('lists the tokens of the project with a prefix and never the token', async () => {
      const { owner, project } = await ownerWithProject();
      const a = await createAgent(owner.client, project.id, 'A');
      const b = await createAgent(owner.client, project.id, 'B');
      const res = await owner.client.get(`/projects/${project.id}/tokens`);
      expect(res.status).toBe(200);
      // Storage itself: each token's id found by its digest, independently of the list under test.
      const idOf = async (token: string) => (await rows('SELECT id FROM agent_tokens WHERE digest = $1', [sha256(token)]))[0].id;
      expect(res.body).toEqual({
        tokens: [
          { id: await idOf(a.token), agentId: a.agent.id, prefix: a.token.slice(0, 8), createdAt: expect.stringMatching(ISO), lastUsedAt: null },
          { id: await idOf(b.token), agentId: b.agent.id, prefix: b.token.slice(0, 8), createdAt: expect.stringMatching(ISO), lastUsedAt: null },
        ],
      });
      expect(a.token.slice(0, 8)).toMatch(/^svc_/);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(a.token);
      expect(text).not.toContain(b.token);
      expect(text).not.toContain(sha256(a.token));

      // Using a token stamps lastUsedAt.
      expect((await a.client.get('/agent/me')).status).toBe(200);
      const after = (await owner.client.get(`/projects/${project.id}/tokens`)).body.tokens;
      expect(after[0].lastUsedAt).toMatch(ISO);
      expect(Math.abs(Date.parse(after[0].lastUsedAt!) - Date.now())).toBeLessThan(60_000);
      expect(after[1].lastUsedAt).toBeNull();
    });

    it('lists only this project\'s tokens', async () => {
      const { owner, project } = await ownerWithProject();
      const other = await createProject(owner.client, 'Other tokens');
      await createAgent(owner.client, other.id);
      expect((await owner.client.get(`/projects/${project.id}/tokens`)).body).toEqual({ tokens: [] });
    });

    it('makes another token for an agent; both work', async () => {
      const { owner, project } = await ownerWithProject();
      const { client, agent, token } = await createAgent(owner.client, project.id);
      const res = await owner.client.post(`/projects/${project.id}/agents/${agent.id}/tokens`);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.stringMatching(UUID), token: expect.stringMatching(TOKEN) });
      expect(res.body.token).not.toBe(token);
      expect((await client.get('/agent/me')).status).toBe(200);
      const fresh = await client.withToken(res.body.token).get('/agent/me');
      expect(fresh.status).toBe(200);
      expect(fresh.body.agent.id).toBe(agent.id);
      const listed = (await owner.client.get(`/projects/${project.id}/tokens`)).body.tokens;
      expect(listed.map((x) => x.id)).toContain(res.body.id);
      expect(listed.find((x) => x.id === res.body.id)).toEqual({
        id: res.body.id, agentId: agent.id, prefix: res.body.token.slice(0, 8), createdAt: expect.stringMatching(ISO), lastUsedAt: expect.stringMatching(ISO),
      });
    });

    it('revokes one token; it then answers 401 and the others keep working', async () => {
      const { owner, project } = await ownerWithProject();
      const { client, agent } = await createAgent(owner.client, project.id);
      const extra = await owner.client.post(`/projects/${project.id}/agents/${agent.id}/tokens`);
      const res = await owner.client.delete(`/projects/${project.id}/tokens/${extra.body.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expectError(await client.withToken(extra.body.token).get('/agent/me'), 401, 'That token is not valid any more.');
      expect((await client.get('/agent/me')).status).toBe(200);
      expect((await owner.client.get(`/projects/${project.id}/tokens`)).body.tokens.map((x) => x.id)).not.toContain(extra.body.id);
      expectError(await owner.client.delete(`/projects/${project.id}/tokens/${extra.body.id}`), 404, 'Token not found.');
    });

    it('answers 404 for an unknown token, a token of another project and an unknown agent', async () => {
      const { owner, project } = await ownerWithProject();
      const other = await createProject(owner.client, 'Other project');
      const foreign = await createAgent(owner.client, other.id);
      const [foreignToken] = (await expectStatus(owner.client.get(`/projects/${other.id}/tokens`), 200)).tokens;
      const foreignId = foreignToken.id;
      expectError(await owner.client.delete(`/projects/${project.id}/tokens/${randomUUID()}`), 404, 'Token not found.');
      expectError(await owner.client.delete(`/projects/${project.id}/tokens/${foreignId}`), 404, 'Token not found.');
      expect((await foreign.client.get('/agent/me')).status).toBe(200);
      expectError(await owner.client.delete(`/projects/${project.id}/tokens/abc`), 400, 'That is not a token id.');

      expectError(await owner.client.post(`/projects/${project.id}/agents/${randomUUID()}/tokens`), 404, 'Agent not found.');
      expectError(await owner.client.post(`/projects/${project.id}/agents/${foreign.agent.id}/tokens`), 404, 'Agent not found.');
      expectError(await owner.client.post(`/projects/${project.id}/agents/${owner.user.id}/tokens`), 404, 'Agent not found.');
      expect((await owner.client.get(`/projects/${project.id}/tokens`)).body).toEqual({ tokens: [] });
    });
  });
});
