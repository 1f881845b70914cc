/**
 * Task create's serial part runs inside PostgreSQL (`board_create_task`, migration 1764374400000, redefined by 1765000200000),
 * which computes two things TypeScript also computes: the xmin fingerprint of the properties,
 * options and members (fingerprint.sql.ts, read by TaskCreateRepository.load) and the project lock key
 * (locks.sql.ts, taken by Database.transaction({ lockProject })). For random sequences of changes
 * to a project's properties, options and members, the fingerprint TypeScript reads is the one the
 * function accepts, and the one read before a change is refused; and the function waits on
 * exactly the lock TypeScript takes.
 */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { Database } from '@board/persistence';
import { TaskCreateRepository } from '@board/tasks';
import { aProject } from '../support/builders';
import { addMember, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const SEED = Number(process.env.TASK_CREATE_SQL_SEED ?? Date.now() % 2 ** 31);

type Change = 'addProperty' | 'renameProperty' | 'addOption' | 'renameOption' | 'deleteOption' | 'addMember' | 'nothing';
const CHANGES: Change[] = ['addProperty', 'renameProperty', 'addOption', 'renameOption', 'deleteOption', 'addMember', 'nothing'];

describe('board_create_task computes the fingerprint and the lock key TypeScript computes', () => {
  let t: TestApp;
  let owner: Person;
  let db: Database;
  let store: TaskCreateRepository;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(Database);
    store = t.app.get(TaskCreateRepository);
    owner = await registerPerson(t, 'Olive');
  });
  afterAll(() => t.close());

  /** What the function answers for `fingerprint`, written nothing (the transaction rolls back). */
  async function outcomeFor(projectId: string, fingerprint: string): Promise<string> {
    const client = new PgClient({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      const res = await client.query<{ outcome: string }>(
        `SELECT outcome FROM board_create_task($1, $2, 'probe', '', '{}'::jsonb, $3, now(), false, ARRAY['zzzzzzzz'], $4, 50000)`,
        [projectId, randomUUID(), owner.user.id, fingerprint],
      );
      return res.rows[0].outcome;
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  }

  async function apply(change: Change, projectId: string, selectId: string, n: number): Promise<void> {
    const c = owner.client;
    const ok = (res: { status: number; body: unknown }) => {
      if (res.status >= 300) throw new Error(`${change}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string; options?: { id: string }[] };
    };
    switch (change) {
      case 'addProperty':
        ok(await c.post(`/projects/${projectId}/properties`, { name: `P${n}`, type: 'text' }));
        return;
      case 'renameProperty':
        ok(await c.patch(`/properties/${selectId}`, { name: `Sel ${n}` }));
        return;
      case 'addOption':
        ok(await c.post(`/properties/${selectId}/options`, { name: `O${n}` }));
        return;
      case 'renameOption':
      case 'deleteOption': {
        const board = ok(await c.get(`/projects/${projectId}/board`)) as unknown as { properties: { id: string; options: { id: string }[] }[] };
        const option = board.properties.find((p) => p.id === selectId)?.options[0];
        if (!option) return apply('addOption', projectId, selectId, n);
        if (change === 'renameOption') ok(await c.patch(`/options/${option.id}`, { name: `R${n}` }));
        else ok(await c.delete(`/options/${option.id}`));
        return;
      }
      case 'addMember':
        await addMember(c, projectId, await registerPerson(t, `M${n}`));
        return;
      case 'nothing':
        return;
    }
  }

  it('accepts the fingerprint TaskCreateRepository reads, and refuses it once the definitions changed', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...CHANGES), { minLength: 1, maxLength: 5 }), async (changes) => {
        run++;
        const { project, props } = await aProject(owner.client, { key: `FP${run}`, properties: { Sel: ['select', ['A', 'B']] } });
        for (const [i, change] of changes.entries()) {
          const before = (await store.load(project.id))!.defsFingerprint;
          expect(await outcomeFor(project.id, before)).not.toBe('stale');
          await apply(change, project.id, props.Sel.id, i);
          const after = (await store.load(project.id))!.defsFingerprint;
          expect(await outcomeFor(project.id, after)).not.toBe('stale');
          if (change === 'nothing') expect(after).toBe(before);
          else expect(await outcomeFor(project.id, before)).toBe('stale');
        }
      }),
      { numRuns: 8, seed: SEED },
    );
  }, 120_000);

  it("waits on the project lock Database.transaction takes, and only on that project's", async () => {
    const { project } = await aProject(owner.client, { key: 'LOCK' });
    const { project: other } = await aProject(owner.client, { key: 'OTHER' });
    const fingerprint = async (id: string) => (await store.load(id))!.defsFingerprint;
    const probe = async (projectId: string) => {
      const client = new PgClient({ connectionString: t.databaseUrl });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL lock_timeout = '300ms'`);
        await client.query(`SELECT outcome FROM board_create_task($1, $2, 'probe', '', '{}'::jsonb, $3, now(), false, ARRAY['zzzzzzzz'], $4, 50000)`, [
          projectId, randomUUID(), owner.user.id, await fingerprint(projectId),
        ]);
        return 'ran';
      } catch (error) {
        return (error as { code?: string }).code;
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.end();
      }
    };
    const seen = await db.transaction(async () => [await probe(project.id), await probe(other.id)], { lockProject: project.id });
    // 55P03: lock_not_available, the lock timeout of a wait on the very key TypeScript holds.
    expect(seen).toEqual(['55P03', 'ran']);
    expect(await probe(project.id)).toBe('ran');
  });
});
