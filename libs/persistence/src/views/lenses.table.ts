import { raw, Sql, sql } from '../sql';

/** `lenses l`: one person's own rules and sort on a view, as a ViewRecord names them. */
export const LENS_COLUMNS = raw('l.rules AS "lensRules", l.sort AS "lensSort"');

/** A row of `LENS_COLUMNS` (null when the reader keeps no lens on the view). */
export interface LensRow {
  lensRules: unknown[] | null;
  lensSort: unknown;
}

/** `lenses l` of the reader `user` (an SQL expression) on each view of `views v`; none matches a null reader. */
export const lensJoin = (user: Sql): Sql =>
  sql`LEFT JOIN lenses l ON l.project_id = v.project_id AND l.view_id = v.id AND l.user_id = ${user}`;
