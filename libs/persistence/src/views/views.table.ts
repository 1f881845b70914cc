import { sql } from '../sql';
import { LENS_COLUMNS } from './lenses.table';

/** The columns of `views v` as a ViewRecord names them (the lens columns are joined from `lenses l`). */
export const VIEW_COLUMNS = sql`v.id, v.project_id AS "projectId", v.name, v.kind, v.group_by_id AS "groupById", v.position,
  v.is_default AS "isDefault", v.filters, v.sort, v.card_view AS "cardView", ${LENS_COLUMNS}`;
