import type { AttachmentView } from '@board/files';

/** Reads of attachments that only show data. */
export abstract class AttachmentQuery {
  /** A task's ready files, newest first, in the answer's shape. The caller checked that the task is live. */
  abstract readyOnTask(projectId: string, taskId: string): Promise<AttachmentView[]>;
}
