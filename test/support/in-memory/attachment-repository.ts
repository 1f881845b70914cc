import type { AttachmentQuery } from '@board/persistence';
import { Attachment, AttachmentRepository, AttachmentView, BucketCleanup, toAttachmentView } from '@board/files';

type Row = Attachment & { uploadClosesAt: Date | null };

/**
 * AttachmentRepository in memory. `liveTasks` holds `projectId:taskId` of the live tasks (a file
 * of any other task is not found, as the joins to live tasks say); `queued` the keys removals and
 * confirmations left for the bucket, as their statements queue them.
 */
export class InMemoryAttachmentRepository extends AttachmentRepository {
  readonly rows = new Map<string, Row>();
  readonly liveTasks = new Set<string>();
  readonly queued = new Set<string>();
  readonly touched: { projectId: string; taskId: string; at: Date }[] = [];
  /** Uploaders whose upload lock was taken, in order. */
  readonly locked: string[] = [];

  async holdUploadSlots(uploaderId: string, since: Date): Promise<number> {
    this.locked.push(uploaderId);
    return [...this.rows.values()].filter((r) => r.uploaderId === uploaderId && r.state === 'pending' && r.createdAt > since).length;
  }

  async insertPending(attachment: Omit<Attachment, 'state' | 'width' | 'height' | 'uploadKey'> & { uploadKey: string; uploadClosesAt: Date }): Promise<Attachment | null> {
    if (!this.liveTasks.has(`${attachment.projectId}:${attachment.taskId}`)) return null;
    this.rows.set(attachment.id, { ...attachment, state: 'pending', width: null, height: null });
    return this.copy(attachment.id);
  }

  async find(projectId: string, id: string): Promise<Attachment | null> {
    const row = this.rows.get(id);
    return row?.projectId === projectId && this.liveTasks.has(`${projectId}:${row.taskId}`) ? this.copy(id) : null;
  }

  async markReady(projectId: string, id: string, objectKey: string, size: { width: number; height: number } | null): Promise<Attachment | null> {
    const row = this.rows.get(id);
    if (row?.projectId !== projectId || row.state !== 'pending' || !this.liveTasks.has(`${projectId}:${row.taskId}`)) return null;
    if (row.uploadKey && row.uploadKey !== objectKey) this.queued.add(row.uploadKey);
    Object.assign(row, { state: 'ready', objectKey, width: size?.width ?? null, height: size?.height ?? null });
    return this.copy(id);
  }

  async remove(projectId: string, id: string): Promise<Attachment | null> {
    const gone = await this.find(projectId, id);
    if (!gone) return null;
    this.rows.delete(id);
    this.queued.add(gone.objectKey);
    if (gone.uploadKey) this.queued.add(gone.uploadKey);
    return gone;
  }

  async touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    this.touched.push({ projectId, taskId, at: now });
  }

  private copy(id: string): Attachment {
    const { uploadClosesAt: _closes, ...attachment } = this.rows.get(id) as Row;
    return { ...attachment };
  }
}

/** The bucket's queue over the in-memory rows: every queued key is due (no leases, nothing expires on its own). */
export class InMemoryBucketCleanup extends BucketCleanup {
  constructor(private readonly attachments: InMemoryAttachmentRepository) {
    super();
  }

  async expirePending(): Promise<number> {
    return 0;
  }

  async claim(_now: Date, _leaseUntil: Date, limit: number): Promise<string[]> {
    return [...this.attachments.queued].slice(0, limit);
  }

  async forget(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.attachments.queued.delete(key);
  }
}

/** The attachment read model over the in-memory rows. */
export class InMemoryAttachmentQuery implements AttachmentQuery {
  constructor(private readonly attachments: InMemoryAttachmentRepository) {}

  async readyOnTask(projectId: string, taskId: string): Promise<AttachmentView[]> {
    return [...this.attachments.rows.values()]
      .filter((r) => r.projectId === projectId && r.taskId === taskId && r.state === 'ready')
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map(toAttachmentView);
  }
}
