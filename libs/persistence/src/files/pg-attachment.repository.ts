import { Injectable } from '@nestjs/common';
import { Attachment, AttachmentRepository } from '@board/files';
import { Database } from '../database';
import { touchTask } from '../discussion/touch-task';

export interface AttachmentRow {
  id: string;
  project_id: string;
  task_id: string;
  uploader_id: string | null;
  name: string;
  mime: string;
  /** bigint: pg hands it over as text. */
  size: string;
  width: number | null;
  height: number | null;
  object_key: string;
  state: Attachment['state'];
  created_at: Date;
}

export const ATTACHMENT_COLUMNS = `a.id, a.project_id, a.task_id, a.uploader_id, a.name, a.mime, a.size, a.width, a.height, a.object_key, a.state, a.created_at`;

export const toAttachment = (r: AttachmentRow): Attachment => ({
  id: r.id,
  projectId: r.project_id,
  taskId: r.task_id,
  uploaderId: r.uploader_id,
  name: r.name,
  mime: r.mime,
  size: Number(r.size),
  width: r.width,
  height: r.height,
  objectKey: r.object_key,
  state: r.state,
  createdAt: r.created_at,
});

// A file hangs off a live task of the same project; a deleted task takes its files out of sight.
const LIVE_TASK = `EXISTS (SELECT 1 FROM tasks t WHERE t.id = a.task_id AND t.project_id = a.project_id AND t.deleted_at IS NULL)`;

/** Attachment rows. Removing one queues its bucket key (a trigger on the table, same transaction). */
@Injectable()
export class PgAttachmentRepository extends AttachmentRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async insertPending(a: Omit<Attachment, 'state' | 'width' | 'height'>): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(
      `INSERT INTO attachments AS a (id, project_id, task_id, uploader_id, name, mime, size, object_key, state, created_at)
       SELECT $1, t.project_id, t.id, $4, $5, $6, $7, $8, 'pending', $9 FROM tasks t
        WHERE t.id = $3 AND t.project_id = $2 AND t.deleted_at IS NULL
       RETURNING ${ATTACHMENT_COLUMNS}`,
      [a.id, a.projectId, a.taskId, a.uploaderId, a.name, a.mime, a.size, a.objectKey, a.createdAt],
    );
    return row ? toAttachment(row) : null;
  }

  async find(projectId: string, id: string): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(`SELECT ${ATTACHMENT_COLUMNS} FROM attachments a WHERE a.id = $1 AND a.project_id = $2 AND ${LIVE_TASK}`, [
      id, projectId,
    ]);
    return row ? toAttachment(row) : null;
  }

  async markReady(projectId: string, id: string, size: { width: number; height: number } | null): Promise<Attachment | null> {
    // Only a pending row turns: of two confirmations at once, one writes and the other finds it ready.
    const row = await this.db.one<AttachmentRow>(
      `UPDATE attachments a SET state = 'ready', width = $3, height = $4
        WHERE a.id = $1 AND a.project_id = $2 AND a.state = 'pending' AND ${LIVE_TASK}
      RETURNING ${ATTACHMENT_COLUMNS}`,
      [id, projectId, size?.width ?? null, size?.height ?? null],
    );
    return row ? toAttachment(row) : null;
  }

  async remove(projectId: string, id: string): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(
      `DELETE FROM attachments a WHERE a.id = $1 AND a.project_id = $2 AND ${LIVE_TASK} RETURNING ${ATTACHMENT_COLUMNS}`,
      [id, projectId],
    );
    return row ? toAttachment(row) : null;
  }

  touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    return touchTask(this.db, projectId, taskId, now);
  }
}
