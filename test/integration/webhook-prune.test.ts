import { randomUUID } from 'node:crypto';
import { WebhookRepository } from '@board/webhooks';
import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/** Keeping the last 20 deliveries never drops one that is still waiting to be sent. */
describe('WebhookRepository.prune', () => {
  let t: TestApp;
  let projectId: string;
  const webhookId = randomUUID();

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await registerPerson(t);
    projectId = (await createProject(owner.client, 'Prune', 'PRN')).id;
    await t.sql.query(`INSERT INTO webhooks (id, project_id, url, secret) VALUES ($1, $2, 'https://hooks.example.com/', 'svcs_x')`, [webhookId, projectId]);
  });
  afterAll(() => t.close());

  /** `n` deliveries of a status, created `hoursAgo` hours (and a few seconds) ago. */
  const add = (status: string, n: number, hoursAgo = 0) =>
    t.sql.query(
      `INSERT INTO webhook_deliveries (id, project_id, webhook_id, kind, body, status, next_try_at, created_at)
       SELECT gen_random_uuid(), $1, $2, 'created', '{}', $3, now(), now() - ($5 || ' hours')::interval - (g || ' seconds')::interval
         FROM generate_series(1, $4) g`,
      [projectId, webhookId, status, n, hoursAgo],
    );
  const counts = async () =>
    Object.fromEntries(
      (await t.sql.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY status`, [webhookId])).rows.map((r) => [r.status, r.n]),
    );

  it('keeps 20 finished deliveries and every pending one', async () => {
    // Thirty newer ones still waiting, and older finished ones.
    await add('pending', 30);
    await add('delivered', 25, 1);
    await t.app.get(WebhookRepository).prune(projectId, webhookId);
    const after = await counts();
    expect(after.pending).toBe(30);
    // The newest 20 rows are all pending, so every finished one goes.
    expect(after.delivered ?? 0).toBe(0);
    await t.sql.query(`DELETE FROM webhook_deliveries WHERE webhook_id = $1`, [webhookId]);
    await add('delivered', 25);
    await add('dropped', 3);
    await t.app.get(WebhookRepository).prune(projectId, webhookId);
    const kept = await counts();
    expect((kept.delivered ?? 0) + (kept.dropped ?? 0)).toBe(20);
  });
});
