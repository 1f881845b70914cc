import { raw, Sql, sql } from '../sql';

/**
 * The queue lock of one task, held to the end of the transaction that claims it: `runs/next`
 * tries it without waiting (a task another call holds is skipped, never waited for) and a direct
 * claim takes it waiting, before its INSERT. The 'queue:' prefix keeps it apart from the project
 * locks on the bare uuid (locks.sql.ts).
 */
const queueLockKey = (taskId: string | Sql): Sql =>
  typeof taskId === 'string' ? sql`hashtextextended('queue:' || ${taskId}::uuid::text, 7)` : sql`hashtextextended('queue:' || ${taskId}::text, 7)`;

export const advisoryTake = (taskId: string): Sql => sql`pg_advisory_xact_lock(${queueLockKey(taskId)})`;
/** Tries the lock of a task id column (`w.id`), without waiting. */
export const advisoryTryTake = (taskIdColumn: Sql): Sql => sql`pg_try_advisory_xact_lock(${queueLockKey(taskIdColumn)})`;

/** A task row `t` (or any alias) holds one of the done options: the SQL twin of `isOver` (libs/tasks). */
export const overSql = (alias: string, doneWhen: { propertyId: string; optionIds: string[] } | null): Sql => {
  if (!doneWhen) return raw('FALSE');
  const value = sql`(${raw(alias)}."values" -> ${doneWhen.propertyId}::text)`;
  return sql`COALESCE(jsonb_typeof(${value}) IN ('string', 'array') AND ${value} ?| ${doneWhen.optionIds}::text[], FALSE)`;
};
