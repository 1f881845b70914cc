import { Injectable } from '@nestjs/common';
import { Attachment, AttachmentRepository } from '@board/files';
import { Database } from '../database';
import { sql } from '../sql';
import { liveTaskOf, touchTask } from '../discussion/touch-task';
import { ATTACHMENT_COLUMNS, AttachmentRow, toAttachment } from './attachments.table';

const LIVE_TASK = liveTaskOf('a');

/** Attachment rows. Removing one queues its bucket key (a trigger on the table, same transaction). */
@Injectable()
export class PgAttachmentRepository extends AttachmentRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async insertPending(a: Omit<Attachment, 'state' | 'width' | 'height'>): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(
      sql`INSERT INTO attachments AS a (id, project_id, task_id, uploader_id, name, mime, size, object_key, state, created_at)
       SELECT ${a.id}, t.project_id, t.id, ${a.uploaderId}, ${a.name}, ${a.mime}, ${a.size}, ${a.objectKey}, 'pending', ${a.createdAt} FROM tasks t
        WHERE t.id = ${a.taskId} AND t.project_id = ${a.projectId} AND t.deleted_at IS NULL
       RETURNING ${ATTACHMENT_COLUMNS}`,
    );
    return row ? toAttachment(row) : null;
  }

  async find(projectId: string, id: string): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(
      sql`SELECT ${ATTACHMENT_COLUMNS} FROM attachments a WHERE a.id = ${id} AND a.project_id = ${projectId} AND ${LIVE_TASK}`,
    );
    return row ? toAttachment(row) : null;
  }

  async markReady(projectId: string, id: string, size: { width: number; height: number } | null): Promise<Attachment | null> {
    // Only a pending row turns: of two confirmations at once, one writes and the other finds it ready.
    const row = await this.db.one<AttachmentRow>(
      sql`UPDATE attachments a SET state = 'ready', width = ${size?.width ?? null}, height = ${size?.height ?? null}
        WHERE a.id = ${id} AND a.project_id = ${projectId} AND a.state = 'pending' AND ${LIVE_TASK}
      RETURNING ${ATTACHMENT_COLUMNS}`,
    );
    return row ? toAttachment(row) : null;
  }

  async remove(projectId: string, id: string): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(
      sql`DELETE FROM attachments a WHERE a.id = ${id} AND a.project_id = ${projectId} AND ${LIVE_TASK} RETURNING ${ATTACHMENT_COLUMNS}`,
    );
    return row ? toAttachment(row) : null;
  }

  touchTask(projectId: string, taskId: string, now: Date): Promise<void> {
    return touchTask(this.db, projectId, taskId, now);
  }
}
