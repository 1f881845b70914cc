import { BackgroundWork, feedLine, NoMetrics, notice, readInTurn, WriteEvent } from '@board/kernel';
import { MAX_PENDING_UPLOADS, PENDING_LIFETIME_MS, readFileName, readUploadSize, UploadAsked } from '@board/files';
import { InMemoryAttachmentQuery, InMemoryAttachmentRepository, InMemoryBucketCleanup } from '../../../../test/support/in-memory/attachment-repository';
import { SteppedClock } from '../../../../test/support/in-memory/clock';
import { AloneLiveness } from '../../../../test/support/in-memory/liveness';
import { InMemoryObjectStore } from '../../../../test/support/in-memory/object-store';
import { png } from '../../../../test/support/images';
import { RecordingUnitOfWork } from '../../../../test/support/recording-unit-of-work';
import { refusalCode } from '../../../../test/support/refusal-code';
import type { ProjectCaller } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import { FilesService } from './files.service';
import { FilesSweeper } from './files.sweeper';

// The read model is an in-memory fake: the adapters' library is not loaded (specs stay fast).
jest.mock('@board/persistence', () => ({}));
// The sweeper's schedule is Nest's: its library (cron, luxon) costs a third of a second to load and is not what is tested here.
jest.mock('@nestjs/schedule', () => ({ Interval: () => () => undefined }));

const PROJECT = '00000000-0000-4000-8000-000000000001';
const TASK = '00000000-0000-4000-8000-0000000000a1';
const GONE_TASK = '00000000-0000-4000-8000-0000000000a2';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const caller = (userId: string, role: ProjectCaller['role'] = 'member', kind: ProjectCaller['kind'] = 'human'): ProjectCaller => ({
  userId, kind, name: userId, role, projectId: PROJECT, clientId: 'tab-1',
});
const ANN = caller('ann');
const BEN = caller('ben');
const OWNER = caller('olga', 'owner');
const BOT = caller('bot', 'admin', 'agent');

const line = (actorId: string, action: 'added' | 'removed', attachmentId: string, name: string): WriteEvent =>
  feedLine({ projectId: PROJECT, taskId: TASK, actorId, kind: 'attachment', data: { action, attachmentId, name } });
const ring = notice({ projectId: PROJECT, scope: 'task', taskId: TASK, clientId: 'tab-1' });
const note = { name: 'notes.txt', mime: 'text/plain', size: 5 as unknown };

/** The upload request as the DTO reads it: the size kept with its refusal for its turn. */
const asked = (sent: { name: string; mime: string; size: unknown }): UploadAsked => ({ name: sent.name, mime: sent.mime, size: readInTurn(() => readUploadSize(sent.size)) });

const requestUpload = (service: FilesService, by: ProjectCaller, taskId: string, sent: { name: string; mime: string; size: unknown }) =>
  service.requestUpload(by, taskId, asked(sent));

function setUp() {
  const attachments = new InMemoryAttachmentRepository();
  attachments.liveTasks.add(`${PROJECT}:${TASK}`);
  const store = new InMemoryObjectStore();
  const uow = new RecordingUnitOfWork();
  const clock = new SteppedClock();
  const config = Object.assign(new AppConfig(), { S3_BUCKET: 'board', SERVICE_MAX_FILE_BYTES: 1024, SERVICE_FILE_TYPES: ['text/plain', 'image/png'] });
  const inline: BackgroundWork = { run: (work) => work() };
  const sweeper = new FilesSweeper(new InMemoryBucketCleanup(attachments), store, clock, inline, new NoMetrics(), new AloneLiveness(), config);
  const service = new FilesService(attachments, new InMemoryAttachmentQuery(attachments), store, sweeper, uow, clock, config);
  /** An upload asked for and its bytes put where its URL writes; answers the file's id. */
  const uploaded = async (by: ProjectCaller, body: Uint8Array = Buffer.from('hello'), request = note) => {
    const { id } = await requestUpload(service, by, TASK, { ...request, size: body.length });
    await store.put(`uploads/${PROJECT}/${id}`, body, request.mime);
    return id;
  };
  return { attachments, store, uow, clock, service, uploaded };
}

describe('FilesService', () => {
  describe('requestUpload', () => {
    it('holds a pending file under the uploader’s lock and answers a signed PUT; nothing is told', async () => {
      const { attachments, uow, service } = setUp();
      const { id, uploadUrl, headers } = await requestUpload(service, ANN, TASK, note);
      expect(uploadUrl).toBe(`https://bucket.test/uploads/${PROJECT}/${id}?put&type=text%2Fplain&size=5&expires=600`);
      expect(headers).toEqual({ 'Content-Type': 'text/plain' });
      expect(attachments.rows.get(id)).toMatchObject({ state: 'pending', uploaderId: 'ann', name: 'notes.txt', uploadKey: `uploads/${PROJECT}/${id}` });
      expect(attachments.locked).toEqual(['ann']);
      expect(uow.writes).toEqual([expect.objectContaining({ landed: true, events: [] })]);
    });

    it('refuses by the board’s policy, in the contract’s order, before anything is written', async () => {
      const { attachments, uow, service } = setUp();
      // The name is read at the edge (the DTO), before the service sees the request.
      expect(await refusalCode(Promise.resolve().then(() => readFileName(' ')))).toBe('attachment.name_missing');
      expect(await refusalCode(requestUpload(service, ANN, TASK, { ...note, mime: 'application/zip' }))).toBe('attachment.mime_refused');
      expect(await refusalCode(requestUpload(service, ANN, TASK, { ...note, size: 1025 }))).toBe('attachment.too_large');
      expect(await refusalCode(requestUpload(service, ANN, TASK, { ...note, size: 1e309 }))).toBe('attachment.too_large');
      expect(await refusalCode(requestUpload(service, ANN, TASK, { ...note, size: -1 }))).toBe('attachment.size_missing');
      expect(attachments.rows.size).toBe(0);
      expect(uow.writes).toEqual([]);
    });

    it('refuses a task that is not live, and a slot past the uploader’s limit; only unexpired uploads count', async () => {
      const { uow, clock, service } = setUp();
      expect(await refusalCode(requestUpload(service, ANN, GONE_TASK, note))).toBe('task.not_found');
      for (let i = 0; i < MAX_PENDING_UPLOADS; i++) await requestUpload(service, ANN, TASK, note);
      uow.clear();
      expect(await refusalCode(requestUpload(service, ANN, TASK, note))).toBe('attachment.too_many_pending');
      expect(uow.writes).toEqual([expect.objectContaining({ landed: false })]);
      // Another person holds slots of their own; an hour later Ann's have lapsed.
      await expect(requestUpload(service, BEN, TASK, note)).resolves.toMatchObject({ headers: { 'Content-Type': 'text/plain' } });
      clock.advance(PENDING_LIFETIME_MS + 1);
      await expect(requestUpload(service, ANN, TASK, note)).resolves.toBeDefined();
      expect(uow.writes.map((w) => w.landed)).toEqual([false, true, true]);
    });
  });

  describe('confirm', () => {
    it('copies the upload to a stored key, checks it, turns the file ready with its line and the task’s ring; the upload goes', async () => {
      const { attachments, store, uow, service, uploaded } = setUp();
      const id = await uploaded(ANN);
      uow.clear();
      const { attachment } = await service.confirm(ANN, id);
      expect(attachment).toMatchObject({ id, taskId: TASK, name: 'notes.txt', size: 5, width: null, url: `/api/attachments/${id}` });
      expect(uow.events).toEqual([line('ann', 'added', id, 'notes.txt'), ring]);
      const stored = attachments.rows.get(id)?.objectKey as string;
      expect(stored).toMatch(new RegExp(`^attachments/${PROJECT}/${id}/`));
      expect(store.objects.has(stored)).toBe(true);
      expect(store.deleted).toEqual([`uploads/${PROJECT}/${id}`]);
      expect(attachments.touched).toEqual([expect.objectContaining({ projectId: PROJECT, taskId: TASK })]);
    });

    it('answers the same file a second time and tells nothing', async () => {
      const { uow, service, uploaded } = setUp();
      const id = await uploaded(ANN);
      const first = await service.confirm(ANN, id);
      uow.clear();
      expect(await service.confirm(ANN, id)).toEqual(first);
      expect(uow.writes).toEqual([]);
    });

    it('reads an image’s size from its bytes', async () => {
      const { service, uploaded } = setUp();
      const id = await uploaded(ANN, png(3, 2), { name: 'dot.png', mime: 'image/png', size: 0 });
      expect((await service.confirm(ANN, id)).attachment).toMatchObject({ width: 3, height: 2 });
    });

    it('refuses another person’s upload, an empty upload key, bytes that are not what was promised, a forged image; nothing is told and no copy stays', async () => {
      const { store, uow, service, uploaded } = setUp();
      const id = await uploaded(ANN);
      uow.clear();
      expect(await refusalCode(service.confirm(BEN, id))).toBe('attachment.confirm_own');
      const { id: empty } = await requestUpload(service, ANN, TASK, note);
      expect(await refusalCode(service.confirm(ANN, empty))).toBe('attachment.not_uploaded');
      await store.put(`uploads/${PROJECT}/${empty}`, Buffer.from('hello, world'), 'text/plain');
      expect(await refusalCode(service.confirm(ANN, empty))).toBe('attachment.size_mismatch');
      await store.put(`uploads/${PROJECT}/${empty}`, Buffer.from('hello'), 'text/html');
      expect(await refusalCode(service.confirm(ANN, empty))).toBe('attachment.mime_mismatch');
      const forged = await uploaded(ANN, Buffer.from('not a png'), { name: 'x.png', mime: 'image/png', size: 0 });
      uow.clear();
      expect(await refusalCode(service.confirm(ANN, forged))).toBe('attachment.not_image');
      expect(await refusalCode(service.confirm(ANN, UNKNOWN))).toBe('attachment.not_found');
      expect(uow.events).toEqual([]);
      expect([...store.objects.keys()].filter((k) => k.startsWith('attachments/'))).toEqual([]);
    });
  });

  describe('list and readUrl', () => {
    it('lists the task’s ready files only, and signs a read of a ready file', async () => {
      const { service, uploaded } = setUp();
      const ready = await uploaded(ANN);
      await service.confirm(ANN, ready);
      const pending = await uploaded(ANN);
      expect((await service.list(PROJECT, TASK)).attachments.map((a) => a.id)).toEqual([ready]);
      expect(await service.readUrl(PROJECT, ready)).toMatch(/\?get&disposition=.*notes\.txt.*&expires=300$/);
      expect(await refusalCode(service.readUrl(PROJECT, pending))).toBe('attachment.not_found');
      expect(await refusalCode(service.readUrl(PROJECT, UNKNOWN))).toBe('attachment.not_found');
    });
  });

  describe('remove', () => {
    it('removes a ready file with its line and the task’s ring, and takes its bytes out of the bucket', async () => {
      const { attachments, store, uow, service, uploaded } = setUp();
      const id = await uploaded(ANN);
      await service.confirm(ANN, id);
      const stored = attachments.rows.get(id)?.objectKey as string;
      uow.clear();
      await service.remove(ANN, id);
      expect(uow.events).toEqual([line('ann', 'removed', id, 'notes.txt'), ring]);
      expect(attachments.rows.has(id)).toBe(false);
      expect(store.objects.has(stored)).toBe(false);
      // The upload key stays queued for a PUT that comes after (its URL is still open).
      expect([...attachments.queued]).toEqual([`uploads/${PROJECT}/${id}`]);
    });

    it('removes a pending upload telling nobody (it was never on the task)', async () => {
      const { attachments, uow, service, uploaded } = setUp();
      const id = await uploaded(ANN);
      uow.clear();
      await service.remove(ANN, id);
      expect(attachments.rows.has(id)).toBe(false);
      expect(uow.writes).toEqual([expect.objectContaining({ landed: true, events: [] })]);
    });

    it('lets an owner or admin person remove anybody’s file; refuses a member or an agent another’s, and an unknown file', async () => {
      const { uow, service, uploaded } = setUp();
      const ann = await uploaded(ANN);
      const other = await uploaded(ANN);
      uow.clear();
      expect(await refusalCode(service.remove(BEN, ann))).toBe('attachment.delete_own');
      expect(await refusalCode(service.remove(BOT, ann))).toBe('attachment.delete_own');
      expect(await refusalCode(service.remove(ANN, UNKNOWN))).toBe('attachment.not_found');
      expect(uow.events).toEqual([]);
      await service.remove(OWNER, ann);
      await service.remove(caller('adam', 'admin'), other);
      expect(uow.writes.filter((w) => w.landed)).toHaveLength(2);
    });
  });
});
