import { readFileName, readMime } from '@board/files';
import { FieldRule, refusalOf } from '../http/dto/field-rules';

/**
 * POST /tasks/:taskId/attachments: `{ name, mime, size }`. The checks that need the server's
 * policy (a refused type, the size limit) come next in the contract's order, so they and the size
 * stay in `readUploadRequest`, which the service calls with the policy.
 */
export class UploadRequestBody {
  @FieldRule('attachment-name', (value) => refusalOf(() => readFileName(value)), { schema: { type: 'string', examples: ['screenshot.png'] }, required: true })
  name: string;

  @FieldRule('attachment-mime', (value) => refusalOf(() => readMime(value)), { schema: { type: 'string', examples: ['image/png'] }, required: true })
  mime: string;

  /** Bytes, a whole number; checked against the server's limit by `readUploadRequest`. */
  @FieldRule('attachment-size', () => null, { schema: { type: 'integer', minimum: 0, description: 'Bytes.', examples: [48213] }, required: true })
  size: number;
}
