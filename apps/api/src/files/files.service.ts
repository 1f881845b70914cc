import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, feedLine, notice, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  assertCanConfirm, assertCanDelete, assertUploadSlotFree, Attachment, attachmentLineData, AttachmentRepository, AttachmentView, checkStoredObject,
  contentDisposition, FileActor, FilePolicy, inspectUpload, ObjectStore, PENDING_LIFETIME_MS, READ_LINK_SECONDS, checkUpload, UploadAsked,
  storedKeyFor, toAttachmentView, UPLOAD_CLOSED_AFTER_MS, UPLOAD_WINDOW_SECONDS, uploadKeyFor,
} from '@board/files';
import { AttachmentQuery } from '@board/persistence';
import type { ProjectCaller } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import { FilesSweeper } from './files.sweeper';

const actorOf = (caller: ProjectCaller): FileActor => ({ userId: caller.userId, kind: caller.kind, role: caller.role });

/**
 * Files on tasks. The bytes go straight between the client and the bucket through signed URLs;
 * the service keeps the row, checks the bucket when the uploader confirms, and writes the feed
 * line, its webhook deliveries and the stream notice in one transaction when a file is added or
 * removed. An unconfirmed upload writes and rings nothing.
 *
 * An upload URL writes an upload key (`uploads/…`) and nothing else; confirming copies the object
 * to a stored key no URL names, checks that copy and serves it. A PUT through the URL after
 * `ready`, after a delete or after the project went lands on the upload key only, which the sweep
 * deletes once the URL has closed (decisions.md › Fair use).
 */
@Injectable()
export class FilesService {
  private readonly policy: FilePolicy;

  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly queries: AttachmentQuery,
    private readonly store: ObjectStore,
    private readonly sweeper: FilesSweeper,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.policy = { maxBytes: config.SERVICE_MAX_FILE_BYTES, types: config.SERVICE_FILE_TYPES };
  }

  async list(projectId: string, taskId: string): Promise<{ attachments: AttachmentView[] }> {
    return { attachments: await this.queries.readyOnTask(projectId, taskId) };
  }

  async requestUpload(caller: ProjectCaller, taskId: string, asked: UploadAsked) {
    const { name, mime, size } = checkUpload(asked, this.policy);
    const id = randomUUID();
    const uploadKey = uploadKeyFor(caller.projectId, id);
    const now = this.clock.now();
    await this.uow.write(async () => {
      // Under the uploader's lock: of 200 requests at once, 20 find a slot.
      const held = await this.attachments.holdUploadSlots(caller.userId, new Date(now.getTime() - PENDING_LIFETIME_MS));
      const saved = await this.attachments.insertPending({
        id, projectId: caller.projectId, taskId, uploaderId: caller.userId, name, mime, size, objectKey: uploadKey, uploadKey,
        uploadClosesAt: new Date(now.getTime() + UPLOAD_CLOSED_AFTER_MS), createdAt: now,
      });
      if (!saved) fail('task.not_found');
      assertUploadSlotFree(held);
      return silent(undefined);
    });
    const uploadUrl = await this.store.signedUploadUrl(uploadKey, { contentType: mime, size, expiresInSeconds: UPLOAD_WINDOW_SECONDS });
    return { id, uploadUrl, headers: { 'Content-Type': mime } };
  }

  /** pending → ready once the bucket holds what was promised; a second call answers the same and writes nothing. */
  async confirm(caller: ProjectCaller, id: string): Promise<{ attachment: AttachmentView }> {
    const projectId = caller.projectId;
    const found = await this.load(projectId, id);
    assertCanConfirm(actorOf(caller), found);
    if (found.state === 'ready') return { attachment: toAttachmentView(found) };
    // A file uploaded before uploads had keys of their own is checked where it is.
    if (!found.uploadKey) return (await this.turnReady(caller, found, found.objectKey, await inspectUpload(this.store, found))).answer;
    const uploadKey = found.uploadKey;
    // The upload's own refusals (nothing there, another length or type) before anything is copied.
    const uploaded = await this.store.head(uploadKey);
    if (!uploaded) return this.readyMeanwhile(projectId, id);
    checkStoredObject(found, uploaded);
    const storedKey = storedKeyFor(projectId, id, randomUUID());
    if (!(await this.store.copy(uploadKey, storedKey))) return this.readyMeanwhile(projectId, id);
    let kept = false;
    try {
      // The copy is what gets checked and served: a PUT meanwhile changes only the upload key.
      const turned = await this.turnReady(caller, found, storedKey, await inspectUpload(this.store, { ...found, objectKey: storedKey }));
      kept = turned.kept;
      return turned.answer;
    } finally {
      // A refused file, or a confirmation that lost the race, leaves no copy behind; a kept one no upload.
      await this.sweeper.deleteNow(kept ? uploadKey : storedKey);
    }
  }

  /**
   * The upload key is empty: a racing confirmation may have turned the file and removed it (answer
   * as it did); else nothing was uploaded.
   */
  private async readyMeanwhile(projectId: string, id: string): Promise<{ attachment: AttachmentView }> {
    const now = await this.load(projectId, id);
    if (now.state !== 'ready') fail('attachment.not_uploaded');
    return { attachment: toAttachmentView(now) };
  }

  /**
   * Marks the file ready at `objectKey` with the feed line and the ring, once. `kept` says this
   * call turned it; a lost race answers the winner's file.
   */
  private turnReady(caller: ProjectCaller, found: Attachment, objectKey: string, imageSize: { width: number; height: number } | null) {
    const projectId = caller.projectId;
    return this.uow.write(async () => {
      const ready = await this.attachments.markReady(projectId, found.id, objectKey, imageSize);
      if (!ready) {
        // Another confirmation won the race (answer as it did), or the file went meanwhile.
        const now = await this.load(projectId, found.id);
        if (now.state !== 'ready') fail('attachment.not_found');
        return silent({ answer: { attachment: toAttachmentView(now) }, kept: false });
      }
      const events = await this.changed(caller, ready, 'added');
      return withEvents({ answer: { attachment: toAttachmentView(ready) }, kept: true }, events);
    });
  }

  /** A signed GET of a ready file, five minutes long, opening in place or downloading by its type. */
  async readUrl(projectId: string, id: string): Promise<string> {
    const found = await this.load(projectId, id);
    if (found.state !== 'ready') fail('attachment.not_found');
    return this.store.signedReadUrl(found.objectKey, {
      contentDisposition: contentDisposition(found.name, found.mime),
      expiresInSeconds: READ_LINK_SECONDS,
    });
  }

  async remove(caller: ProjectCaller, id: string): Promise<void> {
    const projectId = caller.projectId;
    const removed = await this.uow.write(async () => {
      assertCanDelete(actorOf(caller), await this.load(projectId, id));
      // The row's key is queued for the bucket by the same statement.
      const gone = await this.attachments.remove(projectId, id);
      if (!gone) return fail('attachment.not_found');
      // A pending upload was never on the task: its removal is told nobody.
      return withEvents(gone, gone.state === 'ready' && (await this.changed(caller, gone, 'removed')));
    });
    // Out of the bucket now if it answers; otherwise the queued key is tried again by the sweep.
    // The upload key stays queued until its URL has closed, for a PUT that comes after this.
    if (removed.objectKey !== removed.uploadKey) await this.sweeper.removeNow([removed.objectKey]);
    if (removed.uploadKey) await this.sweeper.deleteNow(removed.uploadKey);
  }

  private async load(projectId: string, id: string): Promise<Attachment> {
    const found = await this.attachments.find(projectId, id);
    if (!found) return fail('attachment.not_found');
    return found;
  }

  /** Moves the task's `updated_at`; answers the write's events: its `attachment` line and the task's ring. */
  private async changed(caller: ProjectCaller, attachment: Attachment, action: 'added' | 'removed'): Promise<WriteEvent[]> {
    const { projectId, taskId } = attachment;
    await this.attachments.touchTask(projectId, taskId, this.clock.now());
    return [
      feedLine({ projectId, taskId, actorId: caller.userId, kind: 'attachment', data: attachmentLineData(action, attachment) }),
      notice({ projectId, scope: 'task', taskId, clientId: caller.clientId }),
    ];
  }
}
