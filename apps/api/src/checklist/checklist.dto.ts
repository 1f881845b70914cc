import { CHECKLIST_TEXT_MAX, ChecklistPatch } from '@board/tasks';
import { BaseTextField, TextField, Truthy } from '../http/dto/field-rules';

/** POST /tasks/:taskId/checklist */
export class AddChecklistItemBody {
  @TextField('text', { max: CHECKLIST_TEXT_MAX, required: true })
  text: string;
}

/** PATCH /checklist/:itemId: each part optional; `baseText` is the text the writer started from. */
export class UpdateChecklistItemBody implements ChecklistPatch {
  @TextField('text', { max: CHECKLIST_TEXT_MAX })
  text?: string;

  @Truthy('done')
  done?: boolean;

  /** The text the writer started from; absent or null: the last write wins. */
  @BaseTextField('baseText')
  baseText?: string;
}
