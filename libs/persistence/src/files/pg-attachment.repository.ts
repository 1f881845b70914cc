import { Injectable } from '@nestjs/common';
import { Attachment, AttachmentRepository } from '@board/files';
import { Database } from '../database';
import { advisoryXactLock, uploadSlotsLockKey } from '../locks.sql';
import { sql } from '../sql';
import { liveTaskOf, touchTask } from '../tasks/touch-task';
import { ATTACHMENT_COLUMNS, AttachmentRow, toAttachment } from './attachments.table';

const LIVE_TASK = liveTaskOf('a');

/** Attachment rows. Removing one queues its bucket key (a trigger on the table, same transaction). */
@Injectable()
export class PgAttachmentRepository extends AttachmentRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async holdUploadSlots(uploaderId: string, since: Date): Promise<number> {
    await this.db.exec(advisoryXactLock(uploadSlotsLockKey(uploaderId)));
    const row = await this.db.single<{ held: number }>(
      sql`SELECT count(*)::int AS held FROM attachments WHERE uploader_id = ${uploaderId} AND state = 'pending' AND created_at > ${since}`,
    );
    return row.held;
  }

  async insertPending(a: Omit<Attachment, 'state' | 'width' | 'height' | 'uploadKey'> & { uploadKey: string; uploadClosesAt: Date }): Promise<Attachment | null> {
    const row = await this.db.one<AttachmentRow>(
      sql`INSERT INTO attachments AS a (id, project_id, task_id, uploader_id, name, mime, size, object_key, upload_key, upload_closes_at, state, created_at)
       SELECT ${a.id}, t.project_id, t.id, ${a.uploaderId}, ${a.name}, ${a.mime}, ${a.size}, ${a.objectKey}, ${a.uploadKey}, ${a.uploadClosesAt},
              'pending', ${a.createdAt} FROM tasks t
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

  async markReady(projectId: string, id: string, objectKey: string, size: { width: number; height: number } | null): Promise<Attachment | null> {
    // Only a pending row turns: of two confirmations at once, one writes and the other finds it
    // ready. The upload key is queued for when no URL can write it any more (a PUT after ready).
    const row = await this.db.one<AttachmentRow>(
      sql`WITH turned AS (
          UPDATE attachments a SET state = 'ready', object_key = ${objectKey}, width = ${size?.width ?? null}, height = ${size?.height ?? null}
           WHERE a.id = ${id} AND a.project_id = ${projectId} AND a.state = 'pending' AND ${LIVE_TASK}
          RETURNING ${ATTACHMENT_COLUMNS}, a.upload_closes_at),
        queued AS (
          INSERT INTO object_deletions (key, due_at) SELECT upload_key, upload_closes_at FROM turned WHERE upload_key IS NOT NULL
          ON CONFLICT (key) DO UPDATE SET due_at = greatest(object_deletions.due_at, EXCLUDED.due_at))
        SELECT ${ATTACHMENT_COLUMNS} FROM turned a`,
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
