import { raw } from '../sql';

/**
 * Table `list_tasks`: a task in a list (a `ListItem`), with its task's project, in the list's
 * order by `position` (compared COLLATE "C"). Read as a `Ranked` whose id is the task's.
 */
export const LIST_TASK_RANKED_COLUMNS = raw('task_id AS id, position');
