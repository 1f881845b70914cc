import { Client as PgClient } from 'pg';
import { addMember, createAgent, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * The access triggers (migration 1764547200000): deleting a membership, a session, an agent token
 * or a project rings `board_access` at COMMIT with ids only, whatever deletes the row (here plain
 * SQL, as any future route or cascade would), once per distinct person and project.
 */
/** A `board_access` notice: whose access to which project ended (either may be absent). */
interface AccessNotice {
  projectId?: string;
  userId?: string;
}

describe('access notices', () => {
  let t: TestApp;
  let listener: PgClient;
  const heard: AccessNotice[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    listener = new PgClient({ connectionString: t.databaseUrl });
    listener.on('error', () => undefined);
    await listener.connect();
    listener.on('notification', (n) => n.channel === 'board_access' && heard.push(JSON.parse(n.payload ?? '{}')));
    await listener.query('LISTEN board_access');
  });
  afterAll(async () => {
    await listener.end();
    await t.close();
  });

  async function take(): Promise<AccessNotice[]> {
    await new Promise((r) => setTimeout(r, 150));
    return heard.splice(0);
  }

  it('rings for each kind of delete, with ids and never a digest', async () => {
    const owner = await registerPerson(t, 'Owner');
    const member = await registerPerson(t, 'Member');
    const project = await createProject(owner.client);
    await addMember(owner.client, project.id, member);
    const { agent } = await createAgent(owner.client, project.id);
    await take();

    await t.sql.query('DELETE FROM members WHERE project_id = $1 AND user_id = $2', [project.id, member.user.id]);
    expect(await take()).toEqual([{ projectId: project.id, userId: member.user.id }]);

    await t.sql.query('DELETE FROM sessions WHERE user_id = $1', [member.user.id]);
    expect(await take()).toEqual([{ userId: member.user.id }]);

    await t.sql.query('DELETE FROM agent_tokens WHERE agent_id = $1', [agent.id]);
    expect(await take()).toEqual([{ projectId: project.id, userId: agent.id }]);

    // A project delete cascades: the project, and every membership left in it.
    await t.sql.query('DELETE FROM projects WHERE id = $1', [project.id]);
    const rung = await take();
    expect(rung).toEqual(
      expect.arrayContaining([{ projectId: project.id }, { projectId: project.id, userId: owner.user.id }, { projectId: project.id, userId: agent.id }]),
    );
    expect(JSON.stringify(rung)).not.toMatch(/digest|[0-9a-f]{64}/);
  });

  it('rings once per person for a bulk delete, at commit and not on a rollback', async () => {
    const people = await Promise.all([registerPerson(t, 'A'), registerPerson(t, 'B')]);
    for (const p of people) await p.client.post('/auth/login', { email: p.email, password: p.password });
    await take();
    const ids = people.map((p) => p.user.id);

    const client = await t.sql.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM sessions WHERE user_id = ANY($1)', [ids]);
      expect(await take()).toEqual([]);
      await client.query('ROLLBACK');
      expect(await take()).toEqual([]);
      await client.query('DELETE FROM sessions WHERE user_id = ANY($1)', [ids]);
    } finally {
      client.release();
    }
    const rung = await take();
    expect(rung).toHaveLength(2);
    expect(rung).toEqual(expect.arrayContaining(ids.map((userId) => ({ userId }))));
  });
});
