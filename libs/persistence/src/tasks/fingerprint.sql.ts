import { joinSql, raw, Sql, sql } from '../sql';

/**
 * The xmin fingerprint, written once: per table the row count and the sum and maximum of the rows'
 * xmin (the id of the transaction that last wrote each row version), joined by '|'. Any committed
 * insert, update or delete moves it, whichever instance made it; reading it costs a scan of the
 * project's rows, not their decoding. `board_create_task` (migration 1764374400000, redefined by 1765000200000) computes the
 * same text for properties, options and members inside PostgreSQL;
 * test/integration/task-create-sql.test.ts proves the two equal.
 */
export interface FingerprintPart {
  table: string;
  /** More conditions on the table's rows, ANDed to the project filter (constant text). */
  where?: string;
}

/** SQL of the fingerprint of `parts`, for the project `project` (a value, or a slot of `compileOnce`). */
export function xminFingerprint(project: unknown, parts: readonly FingerprintPart[]): Sql {
  return joinSql(
    parts.map(
      ({ table, where }) =>
        sql`(SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) || ':' || COALESCE(max(xmin::text::bigint), 0)
            FROM ${raw(table)} WHERE project_id = ${project}${raw(where ? ` AND ${where}` : '')})`,
    ),
    ` || '|' || `,
  );
}

/** The row version of one row (changes with every write of it): the board's incremental read compares it. */
export const ROW_VERSION = raw('xmin::text');
