/**
 * Lengths (decisions.md › Security › Lengths): a webhook URL is at most 2000 characters; names
 * under `localhost` are loopback, refused when saved and before every try, resolvable or not;
 * an `x-service-client` header over 200 characters or outside printable ASCII is ignored (the
 * write goes on, its notice's clientId is null).
 */
import { DeliveryWorker } from '../../apps/api/src/webhooks/delivery.worker';
import { expectError, listenChanges } from '../support/fixtures';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { DeliveryAnswer } from '../support/answers';

const PRIVATE = 'That address is private, so a webhook cannot reach it.';
const TOO_LONG = 'A webhook address is at most 2000 characters.';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lengths', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  const hooks = () => `/projects/${projectId}/webhooks` as const;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Owner');
    projectId = (await createProject(owner.client, 'Lengths', 'LEN')).id;
  });
  afterAll(() => t.close());

  describe('webhook addresses', () => {
    it('refuses names under localhost when saved, created or changed', async () => {
      for (const url of ['http://foo.localhost:4000/', 'http://a.b.localhost./x', 'https://API.LocalHost/hook', 'http://localhost../']) {
        expectError(await owner.client.post(hooks(), { url }), 400, PRIVATE, url);
      }
      const hook = await owner.client.post(hooks(), { url: 'http://93.184.216.34/ring' });
      expect(hook.status).toBe(201);
      expectError(await owner.client.patch(`${hooks()}/${hook.body.webhook.id}`, { url: 'http://x.localhost/' }), 400, PRIVATE);
      const listed = (await owner.client.get(hooks())).body.webhooks.find((w: { id: string }) => w.id === hook.body.webhook.id);
      expect(listed?.url).toBe('http://93.184.216.34/ring');
    });

    it('refuses a name under localhost before a try, as private rather than as a failed lookup', async () => {
      const hook = (await owner.client.post(hooks(), { url: 'http://93.184.216.34/later' })).body.webhook;
      // Saved before the rule (or by hand): the try must refuse it all the same.
      await t.sql.query('UPDATE webhooks SET url = $2 WHERE id = $1', [hook.id, 'http://foo.localhost:1/']);
      // The other hooks are switched off in the same way, so only this one is tried.
      await t.sql.query('UPDATE webhooks SET enabled = false WHERE project_id = $1 AND id <> $2', [projectId, hook.id]);
      expect((await owner.client.post(`${hooks()}/${hook.id}`)).status).toBe(202);
      let delivery: DeliveryAnswer | undefined;
      for (let i = 0; i < 50 && !((delivery?.tries ?? 0) >= 1); i++) {
        await t.app.get(DeliveryWorker).drain();
        [delivery] = (await owner.client.get(`${hooks()}/${hook.id}/deliveries`)).body.deliveries;
        if (!((delivery?.tries ?? 0) >= 1)) await sleep(100);
      }
      expect(delivery).toMatchObject({ tries: 1, lastCode: null, lastError: PRIVATE });
    });

    it('takes a URL of 2000 characters and refuses 2001 and 100,000, on create and change', async () => {
      const base = 'http://93.184.216.34/';
      const of = (n: number) => base + 'a'.repeat(n - base.length);
      const ok = await owner.client.post(hooks(), { url: of(2000) });
      expect(ok.status).toBe(201);
      expect(ok.body.webhook.url).toHaveLength(2000);
      expectError(await owner.client.post(hooks(), { url: of(2001) }), 400, TOO_LONG);
      expectError(await owner.client.post(hooks(), { url: of(100_000) }), 400, TOO_LONG);
      // Normalised longer than the limit: 700 é become 4200 characters of percent-escapes.
      expectError(await owner.client.post(hooks(), { url: base + 'é'.repeat(700) }), 400, TOO_LONG);
      expectError(await owner.client.patch(`${hooks()}/${ok.body.webhook.id}`, { url: of(2001) }), 400, TOO_LONG);
    });
  });

  describe('the x-service-client header', () => {
    it('is relayed when it is 1 to 200 printable ASCII characters, and ignored otherwise while the write goes on', async () => {
      const changes = await listenChanges(t.databaseUrl);
      try {
        const cases: [string, string | null][] = [
          ['tab-7', 'tab-7'],
          ['x'.repeat(200), 'x'.repeat(200)],
          ['y'.repeat(201), null],
          ['z'.repeat(8000), null],
          ['caf\u00e9', null],
        ];
        for (const [header, expected] of cases) {
          changes.seen.splice(0);
          const res = await owner.client.post(`/projects/${projectId}/tasks`, { title: `Tagged ${header.length}` }, { headers: { 'x-service-client': header } });
          expect(res.status).toBe(201);
          const notices = await changes.take();
          expect(notices.length).toBeGreaterThan(0);
          for (const n of notices) expect([header.slice(0, 20), n.clientId]).toEqual([header.slice(0, 20), expected]);
        }
        // Other write paths read it the same way: a title change, a member's role.
        const task = (await owner.client.post(`/projects/${projectId}/tasks`, { title: 'Renamed' })).body.task;
        await changes.take();
        expect((await owner.client.patch(`/tasks/${task.id}`, { title: 'Renamed again' }, { headers: { 'x-service-client': 'q'.repeat(300) } })).status).toBe(200);
        expect((await owner.client.put(`/projects/${projectId}/rules`, { text: 'Be kind' }, { headers: { 'x-service-client': 'tab\u00a0x' } })).status).toBe(200);
        const notices = await changes.take();
        expect(notices.length).toBeGreaterThanOrEqual(2);
        for (const n of notices) expect(n.clientId).toBeNull();
      } finally {
        await changes.close();
      }
    });
  });
});
