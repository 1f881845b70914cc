import { Attachment } from '@board/files';
import { raw } from '../sql';

/** `attachments a`: every column of the stored file, qualified by the alias `a` the statements give the table. */
export const ATTACHMENT_COLUMNS = raw('a.id, a.project_id, a.task_id, a.uploader_id, a.name, a.mime, a.size, a.width, a.height, a.object_key, a.upload_key, a.state, a.created_at');

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
  upload_key: string | null;
  state: Attachment['state'];
  created_at: Date;
}

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
  uploadKey: r.upload_key,
  state: r.state,
  createdAt: r.created_at,
});
