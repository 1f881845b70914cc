import { COMMENT_BODY_MAX, readCommentEdit } from '@board/tasks';
import { FieldRule, refusalOf, TextField } from '../http/dto/field-rules';

/** POST /tasks/:taskId/comments */
export class AddCommentBody {
  @TextField('body', { max: COMMENT_BODY_MAX, required: true })
  body: string;
}

/**
 * PATCH /comments/:commentId. Its gate (only the author edits) is checked in the service before
 * the body, so the service reads it with `parseRequest` after the gate, not the global pipe.
 */
export class EditCommentBody {
  /** An empty body has its own sentence: deleting is the way to take the words away. */
  @FieldRule('comment-body', (value) => refusalOf(() => readCommentEdit({ body: value })), {
    schema: { type: 'string', maxLength: COMMENT_BODY_MAX },
    required: true,
  })
  body: string;

  @TextField('baseBody', { allowEmpty: true })
  baseBody?: string | null;
}
