import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, feedLine, notice, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  assertCanConfirm, assertCanDelete, Attachment, attachmentLineData, AttachmentRepository, AttachmentView, contentDisposition, FileActor,
  FilePolicy, inspectUpload, objectKeyFor, ObjectStore, READ_LINK_SECONDS, readUploadRequest, toAttachmentView, UPLOAD_WINDOW_SECONDS,
} from '@board/files';
import { AttachmentQuery } from '@board/persistence';
import type { ProjectCaller } from '../auth/auth-context';
import { AppConfig } from '../config/app-config';
import { UploadRequestBody } from './files.dto';
import { FilesSweeper } from './files.sweeper';

const actorOf = (caller: ProjectCaller): FileActor => ({ userId: caller.userId, kind: caller.kind, role: caller.role });

/**
 * Files on tasks. The bytes go straight between the client and the bucket through signed URLs;
 * the service keeps the row, checks the bucket when the uploader confirms, and writes the feed
 * line, its webhook deliveries and the stream notice in one transaction when a file is added or
 * removed. An unconfirmed upload writes and rings nothing.
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

  async requestUpload(caller: ProjectCaller, taskId: string, body: UploadRequestBody) {
    const { name, mime, size } = readUploadRequest(body, this.policy);
    const id = randomUUID();
    const objectKey = objectKeyFor(caller.projectId, id);
    const saved = await this.attachments.insertPending({
      id, projectId: caller.projectId, taskId, uploaderId: caller.userId, name, mime, size, objectKey, createdAt: this.clock.now(),
    });
    if (!saved) fail('task.not_found');
    const uploadUrl = await this.store.signedUploadUrl(objectKey, { contentType: mime, size, expiresInSeconds: UPLOAD_WINDOW_SECONDS });
    return { id, uploadUrl, headers: { 'Content-Type': mime } };
  }

  /** pending → ready once the bucket holds what was promised; a second call answers the same and writes nothing. */
  async confirm(caller: ProjectCaller, id: string): Promise<{ attachment: AttachmentView }> {
    const projectId = caller.projectId;
    const found = await this.load(projectId, id);
    assertCanConfirm(actorOf(caller), found);
    if (found.state === 'ready') return { attachment: toAttachmentView(found) };
    const imageSize = await inspectUpload(this.store, found);
    return this.uow.write(async () => {
      const ready = await this.attachments.markReady(projectId, id, imageSize);
      if (!ready) {
        // Another confirmation won the race (answer as it did), or the file went meanwhile.
        const now = await this.load(projectId, id);
        if (now.state !== 'ready') fail('attachment.not_found');
        return silent({ attachment: toAttachmentView(now) });
      }
      const events = await this.changed(caller, ready, 'added');
      return withEvents({ attachment: toAttachmentView(ready) }, events);
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
    await this.sweeper.removeNow([removed.objectKey]);
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
