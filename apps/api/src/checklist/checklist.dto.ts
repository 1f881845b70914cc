import { CHECKLIST_TEXT_MAX } from '@board/tasks';
import { TextField, Truthy } from '../http/dto/field-rules';

/** POST /tasks/:taskId/checklist */
export class AddChecklistItemBody {
  @TextField('text', { max: CHECKLIST_TEXT_MAX, required: true })
  text: string;
}

/** PATCH /checklist/:itemId: each part optional; `baseText` is the text the writer started from. */
export class UpdateChecklistItemBody {
  @TextField('text', { max: CHECKLIST_TEXT_MAX })
  text?: string;

  @Truthy('done')
  done?: boolean;

  @TextField('baseText', { allowEmpty: true })
  baseText?: string | null;
}
