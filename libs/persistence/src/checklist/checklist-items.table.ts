import { ChecklistItem } from '@board/tasks';
import { raw } from '../sql';

/** `checklist_items c`: every column of the stored item, qualified by the alias `c` the statements give the table. */
export const CHECKLIST_ITEM_COLUMNS = raw('c.id, c.project_id, c.task_id, c.text, c.done, c.position');

export interface ChecklistItemRow {
  id: string;
  project_id: string;
  task_id: string;
  text: string;
  done: boolean;
  position: string;
}

export const toChecklistItem = (r: ChecklistItemRow): ChecklistItem => ({
  id: r.id,
  projectId: r.project_id,
  taskId: r.task_id,
  text: r.text,
  done: r.done,
  position: r.position,
});
