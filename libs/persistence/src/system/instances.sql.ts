import { Sql, sql } from '../sql';

/**
 * True when the claim's holder (a `leased_by` column) is no live instance: the claim is free to
 * take over. A holder that was never set counts as none. The database's time decides, as it does
 * for the beats (`PgInstanceRegistry`).
 */
export const holderGone = (holder: Sql): Sql =>
  sql`NOT EXISTS (SELECT 1 FROM service_instances i WHERE i.id = ${holder} AND i.alive_until > now())`;
