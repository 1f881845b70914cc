/**
 * Files on tasks (interface.md › Endpoints › Files) against a real SigV4-checking S3 server
 * (s3rver, started by the test): signed uploads the bucket holds to key, type and length; the
 * checks at confirmation, image sizes, the signed read, deletes and who may, the feed line, the
 * webhook and the stream; 503 without a bucket.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { LivenessWorker } from '../../apps/api/src/system/liveness.worker';
import { OffsetClock } from '../support/in-memory/clock';
import { FilesSweeper } from '../../apps/api/src/files/files.sweeper';
import { expectError, expectStatus, listenChanges, ChangeListener, createTask } from '../support/fixtures';
import { taskFeed } from '../support/builders-a';
import { gif, jpeg, png, segmentBombJpeg, webp } from '../support/images';
import { startS3, TestBucket } from '../support/s3';
import { Agent, aTeam } from '../support/builders';
import { anAdmin } from '../support/builders-d';
import { addMember, Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import type { TaskAnswer } from '../support/answers';

const MINUTE = 60_000;

describe('files', () => {
  let s3: TestBucket;
  let t: TestApp;
  let clock: OffsetClock;
  let owner: Person;
  let member: Person;
  let admin: Person;
  let outsider: Person;
  let agent: Agent;
  let projectId: string;
  let task: TaskAnswer;

  beforeAll(async () => {
    s3 = await startS3();
    clock = new OffsetClock();
    t = await startTestApp({ env: { ...s3.env, SERVICE_WEBHOOK_ALLOW: '127.0.0.1' }, clock });
    ({ owner, member, outsider, project: { id: projectId }, agent } = await aTeam(t, { name: 'Files', key: 'FIL' }));
    admin = await anAdmin(t, owner.client, projectId, 'Ada');
    task = await createTask(owner.client, projectId, 'Has files');
  });

  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const request = (client: Client, body: Record<string, unknown>, taskId = task.id) => client.post(`/tasks/${taskId}/attachments`, body);
  const put = (url: string, body: Uint8Array | string, contentType: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });

  /** Requests an upload of `bytes` and sends them as told; answers the request's answer. */
  async function upload(client: Client, name: string, mime: string, bytes: Uint8Array, taskId = task.id) {
    const asked = await expectStatus(request(client, { name, mime, size: bytes.length }, taskId), 201);
    const sent = await put(asked.uploadUrl, bytes, asked.headers['Content-Type']);
    expect(sent.status).toBe(200);
    return asked;
  }

  /** Uploads and confirms; answers the attachment. */
  async function attach(client: Client, name: string, mime: string, bytes: Uint8Array, taskId = task.id) {
    const { id } = await upload(client, name, mime, bytes, taskId);
    return (await expectStatus(client.post(`/attachments/${id}/ready`), 200)).attachment;
  }

  /** Where an upload URL writes. */
  const keyOf = (id: string) => `uploads/${projectId}/${id}`;
  // Storage itself: a pending upload, and where a file's bytes are kept, are shown by no route.
  const rowOf = async (id: string) => (await t.sql.query('SELECT * FROM attachments WHERE id = $1', [id])).rows[0];
  /** A task's feed lines (of one kind), as the project's feed shows them. */
  const feedOf = (taskId: string, kind?: string) => taskFeed(owner.client, projectId, taskId, kind);
  /** A webhook's deliveries as its owner reads them: what each is about. */
  const deliveriesOf = async (hookId: string) =>
    (await expectStatus(owner.client.get(`/projects/${projectId}/webhooks/${hookId}/deliveries`), 200)).deliveries.map((d) => ({ kind: d.kind, taskKey: d.taskKey }));
  /** Where a ready file is kept and served from (a key of its own, made at ready). */
  const storedKeyOf = async (id: string): Promise<string> => (await rowOf(id)).object_key;

  describe('requesting an upload', () => {
    it('answers an id, a signed PUT URL and the header to send, and keeps the file pending', async () => {
      const body = await expectStatus(request(member.client, { name: ' notes.txt ', mime: 'text/plain', size: 5 }), 201);
      expect(Object.keys(body).sort()).toEqual(['headers', 'id', 'uploadUrl']);
      expect(body.headers).toEqual({ 'Content-Type': 'text/plain' });
      const url = new URL(body.uploadUrl);
      expect(url.origin).toBe(s3.endpoint);
      expect(url.pathname).toBe(`/${s3.bucket}/${keyOf(body.id)}`);
      expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
      expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
      expect(await rowOf(body.id)).toMatchObject({ state: 'pending', name: 'notes.txt', mime: 'text/plain', size: '5', uploader_id: member.user.id });
      // Nothing reaches the feed yet.
      expect(await feedOf(task.id, 'attachment')).toEqual([]);
    });

    it('refuses with the contract sentences', async () => {
      const ok = { name: 'a.txt', mime: 'text/plain', size: 3 };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...ok, name: undefined }, 'A file needs a name.'],
        [{ ...ok, name: '   ' }, 'A file needs a name.'],
        [{ ...ok, name: 'x'.repeat(201) }, 'A file name is at most 200 characters.'],
        [{ ...ok, mime: undefined }, 'A file needs a mime type.'],
        [{ ...ok, mime: 'application/x-msdownload' }, 'This board does not take application/x-msdownload files.'],
        [{ ...ok, size: undefined }, 'A file needs its size in bytes.'],
        [{ ...ok, size: '3' }, 'A file needs its size in bytes.'],
        [{ ...ok, size: -1 }, 'A file needs its size in bytes.'],
        [{ ...ok, size: 1.5 }, 'A file needs its size in bytes.'],
        [{ ...ok, size: 26214401 }, 'A file is at most 25 MB.'],
        [{ ...ok, size: 2 ** 31 }, 'A file is at most 25 MB.'],
        [{ ...ok, size: 2 ** 63 }, 'A file is at most 25 MB.'],
      ];
      for (const [body, message] of cases) expectError(await request(member.client, body), 400, message, JSON.stringify(body));
      // A size too big for any number: JSON's 1e309 is Infinity.
      expectError(await member.client.post(`/tasks/${task.id}/attachments`, undefined, { raw: '{"name":"a","mime":"text/plain","size":1e309}' }), 400, 'A file is at most 25 MB.');
      expectError(await member.client.post(`/tasks/${task.id}/attachments`, undefined, { raw: '{"name":' }), 400, 'The request body must be JSON.');
    });

    it('holds at most 20 unconfirmed uploads per person, counted under concurrency; confirming or cancelling frees a slot', async () => {
      const busy = await registerPerson(t, 'Busy');
      await addMember(owner.client, projectId, busy);
      const own = await createTask(busy.client, projectId, 'Slots');
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => request(busy.client, { name: `slot${i}.txt`, mime: 'text/plain', size: 2 }, own.id)),
      );
      const granted = answers.filter((a) => a.status === 201);
      expect(granted).toHaveLength(20);
      for (const refused of answers.filter((a) => a.status !== 201)) expectError(refused, 400, 'Finish or cancel your other uploads first.');
      // Storage itself: pending uploads are shown by no route.
      expect((await t.sql.query(`SELECT count(*)::int AS n FROM attachments WHERE uploader_id = $1`, [busy.user.id])).rows[0].n).toBe(20);
      // Across projects too: the slots are the person's.
      const elsewhere = (await createProject(busy.client, 'Elsewhere', 'ELB')).id;
      const there = await createTask(busy.client, elsewhere, 'There');
      expectError(await request(busy.client, { name: 'x.txt', mime: 'text/plain', size: 2 }, there.id), 400, 'Finish or cancel your other uploads first.');
      // Confirm one and cancel one: two slots free, then full again.
      const [first, second] = granted.map((a) => a.body as { id: string; uploadUrl: string });
      expect((await put(first.uploadUrl, 'ok', 'text/plain')).status).toBe(200);
      await expectStatus(busy.client.post(`/attachments/${first.id}/ready`), 200);
      await expectStatus(busy.client.delete(`/attachments/${second.id}`), 200);
      await expectStatus(request(busy.client, { name: 'again.txt', mime: 'text/plain', size: 2 }, own.id), 201);
      await expectStatus(request(busy.client, { name: 'again.txt', mime: 'text/plain', size: 2 }, there.id), 201);
      expectError(await request(busy.client, { name: 'full.txt', mime: 'text/plain', size: 2 }, own.id), 400, 'Finish or cancel your other uploads first.');
      // Other people are not held by them.
      await expectStatus(request(member.client, { name: 'mine.txt', mime: 'text/plain', size: 2 }, own.id), 201);
    });

    it('is 404 Task not found. for an unknown task, a deleted task and a non-member', async () => {
      expectError(await request(member.client, { name: 'a', mime: 'text/plain', size: 1 }, randomUUID()), 404, 'Task not found.');
      expectError(await request(outsider.client, { name: 'a', mime: 'text/plain', size: 1 }), 404, 'Task not found.');
      expectError(await request(member.client, { name: 'a', mime: 'text/plain', size: 1 }, 'nope'), 400, 'That is not a task id.');
      const doomed = await createTask(owner.client, projectId, 'Doomed');
      await expectStatus(owner.client.delete(`/tasks/${doomed.id}`), 200);
      expectError(await request(member.client, { name: 'a', mime: 'text/plain', size: 1 }, doomed.id), 404, 'Task not found.');
    });
  });

  describe('the bucket holds an upload to its signature', () => {
    it('refuses a tampered URL: another key, another expiry, a changed signature', async () => {
      const { id, uploadUrl } = await expectStatus(request(member.client, { name: 'a.txt', mime: 'text/plain', size: 5 }), 201);
      const otherKey = uploadUrl.replace(id, randomUUID());
      const longer = uploadUrl.replace('X-Amz-Expires=600', 'X-Amz-Expires=6000');
      const signature = new URL(uploadUrl).searchParams.get('X-Amz-Signature')!;
      const forged = uploadUrl.replace(signature, signature.replace(/^./, (c: string) => (c === 'a' ? 'b' : 'a')));
      for (const url of [otherKey, longer, forged]) {
        const res = await put(url, 'hello', 'text/plain');
        expect(res.status).toBe(403);
        expect(await res.text()).toContain('SignatureDoesNotMatch');
      }
      expect(await s3.store.head(keyOf(id))).toBeNull();
      expectError(await member.client.post(`/attachments/${id}/ready`), 409, 'The bucket holds no file for this upload yet.');
    });

    it('refuses bytes of another type or length than promised', async () => {
      const { id, uploadUrl } = await expectStatus(request(member.client, { name: 'a.txt', mime: 'text/plain', size: 5 }), 201);
      expect((await put(uploadUrl, 'hello!', 'text/plain')).status).toBe(403);
      expect((await put(uploadUrl, 'hell', 'text/plain')).status).toBe(403);
      expect((await put(uploadUrl, 'hello', 'text/html')).status).toBe(403);
      expect(await s3.store.head(keyOf(id))).toBeNull();
      expect((await put(uploadUrl, 'hello', 'text/plain')).status).toBe(200);
      expect(await s3.store.head(keyOf(id))).toEqual({ size: 5, contentType: 'text/plain' });
    });

    it('checks length and type again at ready, for an object that got there another way', async () => {
      const { id } = await expectStatus(request(member.client, { name: 'a.txt', mime: 'text/plain', size: 5 }), 201);
      await s3.store.put(keyOf(id), Buffer.from('hello, world'), 'text/plain');
      expectError(await member.client.post(`/attachments/${id}/ready`), 409, 'The file is 12 bytes, but the upload said 5.');
      await s3.store.put(keyOf(id), Buffer.from('<b>hi</b>'.slice(0, 5)), 'text/html');
      expectError(await member.client.post(`/attachments/${id}/ready`), 409, 'The file is text/html, but the upload said text/plain.');
      expect((await rowOf(id)).state).toBe('pending');
    });
  });

  describe('confirming', () => {
    it('makes the file ready: the answer, the feed line, the webhook and the stream, once', async () => {
      const hook = await expectStatus(owner.client.post(`/projects/${projectId}/webhooks`, { url: 'http://127.0.0.1:9/hook', kinds: ['attachment'] }), 201);
      const changes: ChangeListener = await listenChanges(t.databaseUrl);
      try {
        const { id } = await upload(member.client, 'notes.txt', 'text/plain', Buffer.from('hello'));
        expect(await changes.take()).toEqual([]);
        const res = await member.client.post(`/attachments/${id}/ready`, undefined, { headers: { 'x-service-client': 'tab-1' } });
        expect(res.status).toBe(200);
        const { attachment } = res.body;
        expect(attachment).toEqual({
          id, taskId: task.id, uploaderId: member.user.id, name: 'notes.txt', mime: 'text/plain', size: 5, width: null, height: null,
          createdAt: expect.any(String), url: `/api/attachments/${id}`,
        });
        expect(await feedOf(task.id, 'attachment')).toEqual([
          { kind: 'attachment', data: { action: 'added', attachmentId: id, name: 'notes.txt' }, actorId: member.user.id, taskId: task.id },
        ]);
        expect(await changes.take()).toEqual([{ projectId, scope: 'task', taskId: task.id, clientId: 'tab-1' }]);
        expect(await deliveriesOf(hook.webhook.id)).toEqual([{ kind: 'attachment', taskKey: task.key }]);

        // Again: the same answer, nothing written, nothing rung.
        const again = await expectStatus(member.client.post(`/attachments/${id}/ready`), 200);
        expect(again.attachment).toEqual(attachment);
        expect(await feedOf(task.id, 'attachment')).toHaveLength(1);
        expect(await changes.take()).toEqual([]);
        expect(await deliveriesOf(hook.webhook.id)).toHaveLength(1);
      } finally {
        await changes.close();
        await expectStatus(owner.client.delete(`/projects/${projectId}/webhooks/${hook.webhook.id}`), 200);
      }
    });

    it('writes one line when two confirmations race', async () => {
      const racer = await createTask(owner.client, projectId, 'Racer');
      const { id } = await upload(member.client, 'race.txt', 'text/plain', Buffer.from('race'), racer.id);
      const answers = await Promise.all([1, 2, 3].map(() => member.client.post(`/attachments/${id}/ready`)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
      expect(await feedOf(racer.id, 'attachment')).toHaveLength(1);
    });

    it('lets only the uploader confirm', async () => {
      const { id } = await upload(member.client, 'a.txt', 'text/plain', Buffer.from('abc'));
      expectError(await owner.client.post(`/attachments/${id}/ready`), 403, 'Only the uploader can confirm a file.');
      expectError(await agent.client.post(`/attachments/${id}/ready`), 403, 'Only the uploader can confirm a file.');
      expectError(await outsider.client.post(`/attachments/${id}/ready`), 404, 'File not found.');
      expectError(await member.client.post(`/attachments/${randomUUID()}/ready`), 404, 'File not found.');
      expectError(await member.client.post(`/attachments/not-an-id/ready`), 400, 'That is not an attachment id.');
      await expectStatus(member.client.post(`/attachments/${id}/ready`), 200);
    });

    it('reads the width and height of a real PNG, GIF, JPEG and WebP', async () => {
      const cases: [string, string, Uint8Array, number, number][] = [
        ['dot.png', 'image/png', png(7, 3), 7, 3],
        ['anim.gif', 'image/gif', gif(40, 30), 40, 30],
        ['photo.jpg', 'image/jpeg', jpeg(1024, 768), 1024, 768],
        // Its frame header lies behind 200 KB of metadata: more than the first read.
        ['big.jpg', 'image/jpeg', jpeg(4000, 3000, { metadataBytes: 200_000 }), 4000, 3000],
        ['pic.webp', 'image/webp', webp(300, 200, 'lossless'), 300, 200],
      ];
      for (const [name, mime, bytes, width, height] of cases) {
        const attachment = await attach(agent.client, name, mime, bytes);
        expect({ name, width: attachment.width, height: attachment.height }).toEqual({ name, width, height });
      }
    });

    it('refuses a file that is not the image its type names with 422, and keeps it pending', async () => {
      const forged: [string, Uint8Array][] = [
        ['image/png', Buffer.from('this is not a png, only text')],
        ['image/png', jpeg(10, 10)],
        ['image/jpeg', png(2, 2)],
        ['image/gif', Buffer.from('GIF90a and more')],
        ['image/webp', Buffer.from('RIFF\0\0\0\0WAVEfmt stuff here and there')],
        // The right magic, cut short before its size.
        ['image/png', png(4, 4).subarray(0, 20)],
      ];
      for (const [mime, bytes] of forged) {
        const { id } = await upload(member.client, 'forged', mime, bytes);
        expectError(await member.client.post(`/attachments/${id}/ready`), 422, `The file is not a ${mime} image.`, mime);
        expect((await rowOf(id)).state).toBe('pending');
      }
    });

    it('refuses an image whose size cannot be read: a JPEG of 600,000 empty segments is 422 and never served', async () => {
      const bomb = segmentBombJpeg();
      const { id } = await upload(member.client, 'bomb.jpg', 'image/jpeg', bomb);
      expectError(await member.client.post(`/attachments/${id}/ready`), 422, 'The file is not a image/jpeg image.');
      expect(await rowOf(id)).toMatchObject({ state: 'pending', object_key: keyOf(id), width: null, height: null });
      expectError(await member.client.get(`/attachments/${id}`), 404, 'File not found.');
      await expectStatus(member.client.delete(`/attachments/${id}`), 200);
    });

    it('takes an SVG as it is, with no size', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
      const attachment = await attach(member.client, 'logo.svg', 'image/svg+xml', svg);
      expect({ width: attachment.width, height: attachment.height }).toEqual({ width: null, height: null });
    });
  });

  describe('listing and reading', () => {
    let listed: TaskAnswer;
    let photo: Awaited<ReturnType<typeof attach>>;
    let doc: Awaited<ReturnType<typeof attach>>;

    beforeAll(async () => {
      listed = await createTask(owner.client, projectId, 'Listed');
      photo = await attach(member.client, 'dot.png', 'image/png', png(2, 2), listed.id);
      await upload(member.client, 'pending.txt', 'text/plain', Buffer.from('x'), listed.id);
      doc = await attach(owner.client, 'Grüße "2024".pdf', 'application/pdf', Buffer.from('%PDF-1.4 tiny'), listed.id);
    });

    it('lists ready files only, newest first', async () => {
      const { attachments } = await expectStatus(agent.client.get(`/tasks/${listed.id}/attachments`), 200);
      expect(attachments).toEqual([doc, photo]);
      expectError(await outsider.client.get(`/tasks/${listed.id}/attachments`), 404, 'Task not found.');
    });

    it('answers 302 to a signed URL of five minutes, not to be kept; an image opens in place', async () => {
      const res = await fetch(`${t.api}/attachments/${photo.id}`, { headers: { cookie: `service_session=${member.client.cookie}` }, redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(`${s3.endpoint}/${s3.bucket}/${await storedKeyOf(photo.id)}`);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe('inline; filename="dot.png"');
      expect(Buffer.from(await file.arrayBuffer())).toEqual(png(2, 2));
    });

    it('downloads everything else, naming the file in RFC 5987 when it is not plain ASCII', async () => {
      const manual = await fetch(`${t.api}/attachments/${doc.id}`, { headers: { cookie: `service_session=${owner.client.cookie}` }, redirect: 'manual' });
      const location = new URL(manual.headers.get('location')!);
      expect(location.searchParams.get('response-content-disposition')).toBe(
        `attachment; filename="Gr__e _2024_.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%222024%22.pdf`,
      );
      // (s3rver canonicalises query strings with encodeURIComponent, which leaves * and ' bare where
      // SigV4 encodes them, so it cannot serve this URL; AWS S3 and MinIO do. A plain name is served below.)
      const plain = await attach(owner.client, 'report.pdf', 'application/pdf', Buffer.from('%PDF'), listed.id);
      const again = await fetch(`${t.api}/attachments/${plain.id}`, { headers: { cookie: `service_session=${owner.client.cookie}` }, redirect: 'manual' });
      const file = await fetch(again.headers.get('location')!);
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"');
      expect(await file.text()).toBe('%PDF');
    });

    it('is 404 File not found. for a pending file, an unknown one, another project’s and a deleted task’s', async () => {
      const { id: pending } = await upload(member.client, 'later.txt', 'text/plain', Buffer.from('x'), listed.id);
      expectError(await member.client.get(`/attachments/${pending}`), 404, 'File not found.');
      expectError(await member.client.get(`/attachments/${randomUUID()}`), 404, 'File not found.');
      expectError(await outsider.client.get(`/attachments/${photo.id}`), 404, 'File not found.');
      expectError(await member.client.get(`/attachments/x`), 400, 'That is not an attachment id.');

      const gone = await createTask(owner.client, projectId, 'Gone');
      const file = await attach(member.client, 'a.txt', 'text/plain', Buffer.from('a'), gone.id);
      await expectStatus(owner.client.delete(`/tasks/${gone.id}`), 200);
      expectError(await member.client.get(`/attachments/${file.id}`), 404, 'File not found.');
      expectError(await member.client.delete(`/attachments/${file.id}`), 404, 'File not found.');
      await expectStatus(owner.client.post(`/tasks/${gone.id}/restore`), 200);
      expect((await member.client.get(`/attachments/${file.id}`)).status).toBe(200); // the client follows the 302
    });
  });

  describe('deleting', () => {
    it('lets the uploader delete their own; owner and admins anybody’s; a member or an agent only its own', async () => {
      const mine = await attach(member.client, 'm.txt', 'text/plain', Buffer.from('m'));
      const bots = await attach(agent.client, 'b.txt', 'text/plain', Buffer.from('b'));
      const owners = await attach(owner.client, 'o.txt', 'text/plain', Buffer.from('o'));
      const stored = new Map<string, string>();
      for (const file of [mine, bots, owners]) stored.set(file.id, await storedKeyOf(file.id));
      expectError(await member.client.delete(`/attachments/${owners.id}`), 403, 'You can only delete files you added.');
      expectError(await agent.client.delete(`/attachments/${mine.id}`), 403, 'You can only delete files you added.');
      expectError(await outsider.client.delete(`/attachments/${mine.id}`), 404, 'File not found.');
      expect(await expectStatus(agent.client.delete(`/attachments/${bots.id}`), 200)).toEqual({ ok: true });
      await expectStatus(admin.client.delete(`/attachments/${owners.id}`), 200);
      await expectStatus(member.client.delete(`/attachments/${mine.id}`), 200);
      for (const file of [mine, bots, owners]) {
        expect(await rowOf(file.id)).toBeUndefined();
        expect(await s3.store.head(stored.get(file.id)!)).toBeNull();
        expect(await s3.store.head(keyOf(file.id))).toBeNull();
        expectError(await owner.client.get(`/attachments/${file.id}`), 404, 'File not found.');
      }
      expectError(await member.client.delete(`/attachments/${mine.id}`), 404, 'File not found.');
      const removed = (await feedOf(task.id, 'attachment')).filter((l) => l.data.action === 'removed');
      expect(removed).toEqual([
        { kind: 'attachment', data: { action: 'removed', attachmentId: bots.id, name: 'b.txt' }, actorId: agent.agent.id, taskId: task.id },
        { kind: 'attachment', data: { action: 'removed', attachmentId: owners.id, name: 'o.txt' }, actorId: admin.user.id, taskId: task.id },
        { kind: 'attachment', data: { action: 'removed', attachmentId: mine.id, name: 'm.txt' }, actorId: member.user.id, taskId: task.id },
      ]);
    });

    it('writes and rings nothing for a pending file, and takes it out of the bucket too', async () => {
      const { id } = await upload(member.client, 'p.txt', 'text/plain', Buffer.from('p'));
      const before = (await feedOf(task.id)).length;
      const changes = await listenChanges(t.databaseUrl);
      try {
        await expectStatus(member.client.delete(`/attachments/${id}`), 200);
        expect(await changes.take()).toEqual([]);
      } finally {
        await changes.close();
      }
      expect((await feedOf(task.id)).length).toBe(before);
      expect(await s3.store.head(keyOf(id))).toBeNull();
    });
  });

  describe('sweeps', () => {
    let sweeper: FilesSweeper;
    beforeAll(() => {
      sweeper = t.app.get(FilesSweeper);
    });

    it('removes an upload nobody confirmed within an hour, from the table and the bucket', async () => {
      const { id: old } = await upload(member.client, 'old.txt', 'text/plain', Buffer.from('old'));
      clock.advance(30 * MINUTE);
      const { id: young } = await upload(member.client, 'young.txt', 'text/plain', Buffer.from('young'));
      const ready = await attach(member.client, 'kept.txt', 'text/plain', Buffer.from('kept'));
      clock.advance(31 * MINUTE);
      await sweeper.sweep();
      expect(await rowOf(old)).toBeUndefined();
      expect(await s3.store.head(keyOf(old))).toBeNull();
      expect((await rowOf(young)).state).toBe('pending');
      expect(await s3.store.head(keyOf(young))).not.toBeNull();
      expect((await rowOf(ready.id)).state).toBe('ready');
      expectError(await member.client.post(`/attachments/${old}/ready`), 404, 'File not found.');
      await expectStatus(member.client.post(`/attachments/${young}/ready`), 200);
    });

    it('takes the files of a task removed for good by the retention sweep out of the bucket', async () => {
      const doomed = await createTask(owner.client, projectId, 'Removed for good');
      const files = [
        await attach(member.client, 'a.txt', 'text/plain', Buffer.from('a'), doomed.id),
        await attach(member.client, 'b.png', 'image/png', png(1, 1), doomed.id),
      ];
      const { id: pending } = await upload(member.client, 'c.txt', 'text/plain', Buffer.from('c'), doomed.id);
      const stored = await Promise.all(files.map((f) => storedKeyOf(f.id)));
      await expectStatus(owner.client.delete(`/tasks/${doomed.id}`), 200);
      // A forced clock: 30 days of retention cannot pass in a test.
      await t.sql.query(`UPDATE tasks SET deleted_at = now() - interval '31 days' WHERE id = $1`, [doomed.id]);
      const { RetentionSweeper } = await import('../../apps/api/src/tasks/retention.sweeper');
      await t.app.get(RetentionSweeper).sweep();
      const keys = [...stored, keyOf(pending)];
      // Queued in the same transaction as the task went; the bucket still holds them (storage itself: the queue has no route).
      expect((await t.sql.query('SELECT key FROM object_deletions WHERE key = ANY($1) ORDER BY key', [keys])).rows.map((r) => r.key)).toEqual(
        [...keys].sort(),
      );
      // The pending upload's key goes once its URL has closed (no PUT can bring it back then).
      clock.advance(16 * MINUTE);
      await sweeper.sweep();
      for (const key of keys) expect(await s3.store.head(key)).toBeNull();
      expect((await t.sql.query('SELECT count(*)::int AS n FROM object_deletions WHERE key = ANY($1)', [keys])).rows[0].n).toBe(0);
    });

    it('keeps a key whose bucket delete failed and deletes it on a later sweep; sweeps on two instances share the work', async () => {
      // A second instance on the same database whose bucket does not answer.
      const dead = await startTestApp({ databaseUrl: t.databaseUrl, clock, env: { ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:9' } });
      try {
        const files = [];
        for (let i = 0; i < 6; i++) files.push(await attach(member.client, `f${i}.txt`, 'text/plain', Buffer.from(`f${i}`)));
        const keys = await Promise.all(files.map((f) => storedKeyOf(f.id)));
        // The rows go (as a project or task removal would take them) and their keys are queued: storage itself, the queue has no route.
        await t.sql.query('DELETE FROM attachments WHERE id = ANY($1)', [files.map((f) => f.id)]);
        expect(await dead.app.get(FilesSweeper).sweep()).toMatchObject({ deleted: 0 });
        const queued = (await t.sql.query('SELECT key, tries FROM object_deletions WHERE key = ANY($1)', [keys])).rows;
        expect(queued).toHaveLength(6);
        expect(queued.every((r) => r.tries === 1)).toBe(true);
        // Leased to the failed sweep for a while: the good instance leaves them alone until then.
        await sweeper.sweep();
        for (const key of keys) expect(await s3.store.head(key)).not.toBeNull();
        clock.advance(6 * MINUTE);
        const [a, b] = await Promise.all([sweeper.sweep(), sweeper.sweep()]);
        expect(a.deleted + b.deleted).toBeGreaterThanOrEqual(6);
        for (const key of keys) expect(await s3.store.head(key)).toBeNull();
        expect((await t.sql.query('SELECT count(*)::int AS n FROM object_deletions WHERE key = ANY($1)', [keys])).rows[0].n).toBe(0);
      } finally {
        await dead.close();
      }
    });

    it('leaves the keys of a sweep whose instance died mid-way to another instance within 10 s', async () => {
      // A second instance on the same database whose bucket takes the deletes and never answers them.
      const silent = createServer(() => undefined);
      await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
      const seen = { requests: 0 };
      silent.on('request', () => seen.requests++);
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const dying = await startTestApp({ databaseUrl: t.databaseUrl, clock, env: { ...s3.env, S3_ENDPOINT: endpoint } });
      try {
        const files = [];
        for (let i = 0; i < 3; i++) files.push(await attach(member.client, `d${i}.txt`, 'text/plain', Buffer.from(`d${i}`)));
        const keys = await Promise.all(files.map((f) => storedKeyOf(f.id)));
        await t.sql.query('DELETE FROM attachments WHERE id = ANY($1)', [files.map((f) => f.id)]);
        // The dying instance claims the keys (with the whole lease of a live sweep) and its deletes are under way when it dies.
        void dying.app.get(FilesSweeper).sweep();
        for (let i = 0; i < 100 && seen.requests < keys.length; i++) await sleep(50);
        expect(seen.requests).toBe(keys.length);
        dying.app.get(LivenessWorker).stopBeating();
        const died = Date.now();
        // Nobody calls a sweep here: the other instance finds the dying one dead and sweeps at once.
        const gone = async () => (await Promise.all(keys.map((key) => s3.store.head(key)))).every((head) => head === null);
        while (!(await gone()) && Date.now() - died < 15_000) await sleep(100);
        expect(await gone()).toBe(true);
        expect(Date.now() - died).toBeLessThan(10_000);
        expect((await t.sql.query('SELECT count(*)::int AS n FROM object_deletions WHERE key = ANY($1)', [keys])).rows[0].n).toBe(0);
      } finally {
        await dying.close();
        silent.closeAllConnections();
        await new Promise<void>((ok) => silent.close(() => ok()));
      }
    }, 30_000);

    it('serves what was checked: a PUT through the upload URL after ready, after a delete or after the project went changes nothing served, and the sweep removes it', async () => {
      const served = async (id: string, client = member.client) => {
        const res = await fetch(`${t.api}/attachments/${id}`, { headers: { cookie: `service_session=${client.cookie}` }, redirect: 'manual' });
        expect(res.status).toBe(302);
        const file = await fetch(res.headers.get('location')!);
        return { type: file.headers.get('content-type'), bytes: Buffer.from(await file.arrayBuffer()) };
      };
      const image = png(6, 6);
      // The same length and type the URL was signed for, but a page instead of an image.
      const page = Buffer.alloc(image.length, 0x20);
      page.write('<html><script>alert(document.cookie)</script></html>');

      // After ready.
      const shot = await upload(member.client, 'shot.png', 'image/png', image);
      await expectStatus(member.client.post(`/attachments/${shot.id}/ready`), 200);
      expect(await s3.store.head(keyOf(shot.id))).toBeNull();
      expect((await put(shot.uploadUrl, page, 'image/png')).status).toBe(200);
      expect(await served(shot.id)).toEqual({ type: 'image/png', bytes: image });
      const row = await rowOf(shot.id);
      expect(row.object_key).not.toBe(keyOf(shot.id));
      expect(Buffer.from(await s3.store.readRange(row.object_key, 0, image.length - 1))).toEqual(image);

      // After a delete (pending and ready alike).
      const gone = await upload(member.client, 'gone.png', 'image/png', image);
      await expectStatus(member.client.delete(`/attachments/${gone.id}`), 200);
      expect((await put(gone.uploadUrl, page, 'image/png')).status).toBe(200);
      expectError(await member.client.get(`/attachments/${gone.id}`), 404, 'File not found.');
      const keptThenGone = await upload(member.client, 'kept.png', 'image/png', image);
      await expectStatus(member.client.post(`/attachments/${keptThenGone.id}/ready`), 200);
      await expectStatus(member.client.delete(`/attachments/${keptThenGone.id}`), 200);
      expect((await put(keptThenGone.uploadUrl, page, 'image/png')).status).toBe(200);

      // After the project went.
      const p = (await createProject(owner.client, 'Ending', 'END')).id;
      const tk = await createTask(owner.client, p, 'T');
      const late = await expectStatus(owner.client.post(`/tasks/${tk.id}/attachments`, { name: 'late.png', mime: 'image/png', size: image.length }), 201);
      await expectStatus(owner.client.delete(`/projects/${p}`), 200);
      expect((await put(late.uploadUrl, page, 'image/png')).status).toBe(200);

      const leftovers = [keyOf(shot.id), keyOf(gone.id), keyOf(keptThenGone.id), `uploads/${p}/${late.id}`];
      for (const key of leftovers) expect(await s3.store.head(key)).not.toBeNull();
      // Once no URL can write them (ten minutes and a margin), the sweep takes every one; the file stays served.
      clock.advance(16 * MINUTE);
      await sweeper.sweep();
      for (const key of leftovers) expect(await s3.store.head(key)).toBeNull();
      expect(await served(shot.id)).toEqual({ type: 'image/png', bytes: image });
    });

    it('queues the keys of a deleted project', async () => {
      const p = (await createProject(owner.client, 'Short lived', 'SHO')).id;
      const tk = await createTask(owner.client, p, 'T');
      const file = await attach(owner.client, 'x.txt', 'text/plain', Buffer.from('x'), tk.id);
      const stored = await storedKeyOf(file.id);
      expect(stored.startsWith(`attachments/${p}/${file.id}/`)).toBe(true);
      await expectStatus(owner.client.delete(`/projects/${p}`), 200);
      await sweeper.sweep();
      expect(await s3.store.head(stored)).toBeNull();
    });
  });
});

describe('files without a bucket', () => {
  let t: TestApp;
  let owner: Person;
  let task: TaskAnswer;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Nora');
    const projectId = (await createProject(owner.client, 'No bucket', 'NOB')).id;
    task = await createTask(owner.client, projectId, 'T');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 on every file route', async () => {
    const id = randomUUID();
    const message = 'Attachments are off, because this server has no S3 bucket set.';
    const routes: [string, string, unknown?][] = [
      ['GET', `/tasks/${task.id}/attachments`],
      ['POST', `/tasks/${task.id}/attachments`, { name: 'a.txt', mime: 'text/plain', size: 1 }],
      ['POST', `/attachments/${id}/ready`],
      ['GET', `/attachments/${id}`],
      ['DELETE', `/attachments/${id}`],
    ];
    for (const [method, path, body] of routes) expectError(await owner.client.request(method, path, body), 503, message, `${method} ${path}`);
    // The rest of the service works as ever.
    await expectStatus(owner.client.get(`/tasks/${task.id}`), 200);
  });
});
