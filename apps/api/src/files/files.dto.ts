import { readFileName, readMime } from '@board/files';
import { FieldRule, refusalOf } from '../http/dto/field-rules';

/**
 * POST /tasks/:taskId/attachments: `{ name, mime, size }`. The checks that need the server's
 * policy (a refused type, the size limit) come next in the contract's order, so they and the size
 * stay in `readUploadRequest`, which the service calls with the policy.
 */
export class UploadRequestBody {
  @FieldRule('attachment-name', (value) => refusalOf(() => readFileName(value)))
  name: string;

  @FieldRule('attachment-mime', (value) => refusalOf(() => readMime(value)))
  mime: string;

  /** Bytes, a whole number; checked against the server's limit by `readUploadRequest`. */
  @FieldRule('attachment-size', () => null)
  size: number;
}
