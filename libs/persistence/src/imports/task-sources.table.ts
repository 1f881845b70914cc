import { raw } from '../sql';

/**
 * Table `task_sources`: where an imported task came from (a Trello card id), one task per card
 * and project; its primary key (project_id, source_id) is what skips a card imported before.
 */
export const TASK_SOURCE_COLUMNS = raw('project_id, source_id, task_id');
