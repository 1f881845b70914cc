import { Injectable } from '@nestjs/common';
import { attachmentUrl, AttachmentView } from '@board/files';
import { Database } from '../database';
import { sql } from '../sql';
import { AttachmentQuery } from './attachment.query';

/** The attachment reads in SQL. */
@Injectable()
export class PgAttachmentQuery extends AttachmentQuery {
  constructor(private readonly db: Database) {
    super();
  }

  /** A task's ready files, newest first, in the answer's shape. The caller checked that the task is live. */
  async readyOnTask(projectId: string, taskId: string): Promise<AttachmentView[]> {
    const rows = await this.db.query<Omit<AttachmentView, 'url'>>(
      sql`SELECT a.id, a.task_id AS "taskId", a.uploader_id AS "uploaderId", a.name, a.mime, a.size::float8 AS size,
              a.width, a.height, a.created_at AS "createdAt"
         FROM attachments a
        WHERE a.project_id = ${projectId} AND a.task_id = ${taskId} AND a.state = 'ready'
        ORDER BY a.created_at DESC, a.id DESC`,
    );
    return rows.map((r) => ({ ...r, url: attachmentUrl(r.id) }));
  }
}
