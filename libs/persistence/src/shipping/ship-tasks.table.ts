import { raw } from '../sql';

/**
 * `ship_tasks`: the tasks that shipped with an option, kept by the ship so the changelog stays
 * true after tasks move on. Written whole; the changelog reads it by join (no rows mapped).
 */
export const SHIP_TASK_COLUMNS = raw('project_id, option_id, task_id, ship_id');

export interface ShipTaskRow {
  project_id: string;
  option_id: string;
  task_id: string;
  ship_id: string;
}
