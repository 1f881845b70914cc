import type { InTurn } from '@board/kernel';
import { readFileName, readMime, readUploadSize, type UploadAsked } from '@board/files';
import { Keeps, KeepsInTurn } from '../http/dto/field-rules';

/**
 * POST /tasks/:taskId/attachments: `{ name, mime, size }`, each kept as its reader answered it.
 * The checks that need the server's policy (a refused type, the size limit) come next in the
 * contract's order, before the size's own refusal, so that one waits its turn (`checkUpload`).
 */
export class UploadRequestBody implements UploadAsked {
  @Keeps('attachment-name', readFileName, { doc: { schema: { type: 'string', examples: ['screenshot.png'] }, required: true } })
  name: string;

  @Keeps('attachment-mime', readMime, { doc: { schema: { type: 'string', examples: ['image/png'] }, required: true } })
  mime: string;

  /** Bytes, a whole number within the server's limit. */
  @KeepsInTurn('attachment-size', readUploadSize, { absent: 'read', doc: { schema: { type: 'integer', minimum: 0, description: 'Bytes.', examples: [48213] }, required: true } })
  size: InTurn<number>;
}
