import { Sql, sql } from './sql';

/**
 * The advisory lock keys, each written once. `hashtextextended` maps a text onto the bigint key
 * space of advisory locks; the seeds keep the key spaces apart.
 */

/**
 * The per-project lock of writes whose order matters: the uuid's canonical text, seed 7. The same
 * key is computed inside PostgreSQL by `board_create_task` (migration 1764374400000, redefined by 1765000200000), which takes
 * it under the create; test/integration/task-create-sql.test.ts proves the two equal.
 */
export const projectLockKey = (projectId: string): Sql => sql`hashtextextended(${projectId}::uuid::text, 7)`;

/** A person's lists, one write at a time: the 'lists:' prefix keeps them apart from the project locks on the bare uuid. */
export const personListsLockKey = (userId: string): Sql => sql`hashtextextended('lists:' || ${userId}::uuid::text, 7)`;

/** One retention sweep at a time across the cluster (see RetentionSweeper). */
export const retentionSweepLockKey: Sql = sql`hashtextextended('board:retention-sweep', 0)`;

/** Takes `key` until the end of the current transaction. */
export const advisoryXactLock = (key: Sql): Sql => sql`SELECT pg_advisory_xact_lock(${key})`;
