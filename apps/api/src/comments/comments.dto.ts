import { COMMENT_BODY_MAX, CommentEdit, readCommentEdit } from '@board/tasks';
import { BaseTextField, Keeps, TextField } from '../http/dto/field-rules';

/** POST /tasks/:taskId/comments */
export class AddCommentBody {
  @TextField('body', { max: COMMENT_BODY_MAX, required: true })
  body: string;
}

/**
 * PATCH /comments/:commentId. Its gate (only the author edits) is checked before the body
 * (`CommentAuthorCheck`).
 */
export class EditCommentBody implements CommentEdit {
  /** An empty body has its own sentence: deleting is the way to take the words away. */
  @Keeps('comment-body', (value) => readCommentEdit({ body: value }).body, { doc: {
    schema: { type: 'string', maxLength: COMMENT_BODY_MAX },
    required: true,
  } })
  body: string;

  /** The words the writer started from; absent or null: the last write wins. */
  @BaseTextField('baseBody')
  baseBody?: string;
}
