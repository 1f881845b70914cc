import { randomUUID } from 'node:crypto';
import { DAY, MINUTE } from '@board/kernel';
import { BucketCleanup } from '@board/files';
import { WebhookRepository } from '@board/webhooks';
import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * Claims worked outside a transaction name the instance holding them (`leased_by`): another
 * instance skips a claim while its holder lives, whatever is left of its lease, and takes it at
 * once when the holder is dead — and the late word of the old holder changes nothing.
 */
describe('claims and the instances holding them', () => {
  let t: TestApp;
  let projectId: string;
  const webhookId = randomUUID();
  // Far enough ahead that the app's own workers, on the real time, never find these rows due.
  const later = new Date(Date.now() + 2 * DAY);

  beforeAll(async () => {
    t = await startTestApp();
    const owner = await registerPerson(t);
    projectId = (await createProject(owner.client, 'Claims', 'CLM')).id;
    await t.sql.query(`INSERT INTO webhooks (id, project_id, url, secret) VALUES ($1, $2, 'https://hooks.example.com/', 'svcs_x')`, [webhookId, projectId]);
  });
  afterAll(() => t.close());

  /** An instance row alive for an hour; `die` makes its time run out. */
  async function instance(): Promise<{ id: string; die: () => Promise<void> }> {
    const id = randomUUID();
    await t.sql.query(`INSERT INTO service_instances (id, alive_until) VALUES ($1, now() + interval '1 hour')`, [id]);
    return { id, die: () => t.sql.query(`UPDATE service_instances SET alive_until = now() - interval '1 second' WHERE id = $1`, [id]).then(() => undefined) };
  }

  it('a webhook delivery: held while its holder lives, taken at once when it dies, and only the new claim records the try', async () => {
    const id = randomUUID();
    await t.sql.query(
      `INSERT INTO webhook_deliveries (id, project_id, webhook_id, kind, body, next_try_at) VALUES ($1, $2, $3, 'created', '{}', now() + interval '1 day')`,
      [id, projectId, webhookId],
    );
    const store = t.app.get(WebhookRepository);
    const [a, b] = [await instance(), await instance()];
    const [first] = await store.claimDue(later, 10, 30_000, a.id);
    expect(first).toMatchObject({ id, tries: 0 });
    expect(await store.claimDue(later, 10, 30_000, b.id)).toEqual([]);
    await a.die();
    const [second] = await store.claimDue(later, 10, 30_000, b.id);
    expect(second).toMatchObject({ id });
    expect(second.lease).not.toBe(first.lease);
    const outcome = { status: 'delivered' as const, nextTryAt: null, code: 200, error: null, now: later };
    await store.finishTry(first, outcome);
    expect((await t.sql.query('SELECT status, tries FROM webhook_deliveries WHERE id = $1', [id])).rows[0]).toEqual({ status: 'pending', tries: 0 });
    await store.finishTry(second, outcome);
    expect((await t.sql.query('SELECT status, tries, leased_by FROM webhook_deliveries WHERE id = $1', [id])).rows[0]).toEqual({ status: 'delivered', tries: 1, leased_by: null });
  });

  it('a bucket key: held while its holder lives, taken at once when it dies (or has no row at all)', async () => {
    const key = `uploads/${projectId}/${randomUUID()}`;
    await t.sql.query(`INSERT INTO object_deletions (key, due_at) VALUES ($1, now() + interval '1 day')`, [key]);
    const cleanup = t.app.get(BucketCleanup);
    const until = new Date(later.getTime() + 5 * MINUTE);
    const [a, b] = [await instance(), await instance()];
    expect(await cleanup.claim(later, until, 10, a.id)).toEqual([key]);
    expect(await cleanup.claim(later, until, 10, b.id)).toEqual([]);
    await a.die();
    expect(await cleanup.claim(later, until, 10, b.id)).toEqual([key]);
    // An instance that left (its row removed) holds nothing either.
    await t.sql.query('DELETE FROM service_instances WHERE id = $1', [b.id]);
    expect(await cleanup.claim(later, until, 10, (await instance()).id)).toEqual([key]);
  });
});
