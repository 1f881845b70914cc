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

/** Creates that derive a key from one base, one at a time (see `PgProjectRepository.freeKey`). */
export const projectKeyLockKey = (base: string): Sql => sql`hashtextextended('project-key:' || ${base}::text, 7)`;

/** One retention sweep at a time across the cluster (see RetentionSweeper). */
export const retentionSweepLockKey: Sql = sql`hashtextextended('board:retention-sweep', 0)`;

/** Takes `key` until the end of the current transaction. */
export const advisoryXactLock = (key: Sql): Sql => sql`SELECT pg_advisory_xact_lock(${key})`;

/**
 * A caller's heavy-read slot `slot` (1…HEAVY_READS_AT_ONCE): the 'heavy:' prefix keeps the slots
 * apart from the project and list locks on the bare uuid.
 */
export const heavyReadSlotKey = (callerId: string, slot: number): Sql => sql`hashtextextended('heavy:' || ${callerId}::uuid::text || ':' || ${String(slot)}, 7)`;

/** Takes `key` until the end of the current transaction if nobody holds it; answers whether it did. */
export const tryAdvisoryXactLock = (key: Sql): Sql => sql`pg_try_advisory_xact_lock(${key})`;

/** One invite mail decision per address of a project at a time ('invite-to:' keeps the key space apart). */
export const inviteAddressLockKey = (projectId: string, email: string): Sql =>
  sql`hashtextextended('invite-to:' || ${projectId}::uuid::text || ':' || ${email}::text, 7)`;

/** One invite mail decision per sender at a time, across projects ('invite-from:'). */
export const inviteSenderLockKey = (userId: string): Sql => sql`hashtextextended('invite-from:' || ${userId}::uuid::text, 7)`;

/** A person's upload slots, counted one request at a time ('uploads:'). */
export const uploadSlotsLockKey = (userId: string): Sql => sql`hashtextextended('uploads:' || ${userId}::uuid::text, 7)`;
