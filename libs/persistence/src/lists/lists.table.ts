import { raw } from '../sql';

/**
 * Table `lists`: a person's own lists of tasks across projects (`user_id` owns them), in the
 * person's order by `position` (compared COLLATE "C"). A list's writes read it as a `Ranked`.
 */
export const LIST_RANKED_COLUMNS = raw('id, position');
