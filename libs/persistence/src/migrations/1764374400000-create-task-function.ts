import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Task create's serial part in one round trip (bench/README.md, finding 3). Creates of a project
 * take turns on the project lock; held across nine statements, each waiting for a busy event loop,
 * it capped a project at about 200 creates a second. `board_create_task` runs the whole turn
 * inside PostgreSQL: lock, check that the properties, options and members the values were checked
 * against are unchanged (count, sum and maximum of their rows' xmin), pick the rank, number and
 * insert. The lock is released by the commit right after.
 *
 * The rank is picked from keys the service computed (the rank rules stay in one place, the
 * kernel): the first of `p_ranks` past the current edge. When none fits, or the properties
 * changed, nothing is written and the caller tries again.
 */
export class CreateTaskFunction1764374400000 implements MigrationInterface {
  name = 'CreateTaskFunction1764374400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION board_create_task(
        p_project uuid, p_id uuid, p_title text, p_description text, p_values jsonb, p_created_by uuid,
        p_now timestamptz, p_at_top boolean, p_ranks text[], p_defs text
      ) RETURNS TABLE (outcome text, task_number integer, task_position text, edge text)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_defs text;
        v_edge text;
        v_rank text;
        v_number integer;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(p_project::text, 7));
        -- Each statement below sees what committed before the lock was granted.
        -- The same text as DEFS_FINGERPRINT in task-create.store.ts (inline, so its plan is cached).
        SELECT (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) || ':' || COALESCE(max(xmin::text::bigint), 0)
                  FROM properties WHERE project_id = p_project)
          || '|' || (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) || ':' || COALESCE(max(xmin::text::bigint), 0)
                  FROM options WHERE project_id = p_project)
          || '|' || (SELECT count(*) || ':' || COALESCE(sum(xmin::text::bigint), 0) || ':' || COALESCE(max(xmin::text::bigint), 0)
                  FROM members WHERE project_id = p_project)
          INTO v_defs;
        IF v_defs IS DISTINCT FROM p_defs THEN
          RETURN QUERY SELECT 'stale'::text, NULL::integer, NULL::text, NULL::text;
          RETURN;
        END IF;
        -- Deleted tasks keep their rank for a restore, so they count as neighbours too.
        IF p_at_top THEN
          SELECT t.position INTO v_edge FROM tasks t WHERE t.project_id = p_project ORDER BY t.position COLLATE "C" LIMIT 1;
          SELECT r INTO v_rank FROM unnest(p_ranks) WITH ORDINALITY AS u(r, i)
           WHERE v_edge IS NULL OR r COLLATE "C" < v_edge COLLATE "C" ORDER BY i LIMIT 1;
        ELSE
          SELECT t.position INTO v_edge FROM tasks t WHERE t.project_id = p_project ORDER BY t.position COLLATE "C" DESC LIMIT 1;
          SELECT r INTO v_rank FROM unnest(p_ranks) WITH ORDINALITY AS u(r, i)
           WHERE v_edge IS NULL OR r COLLATE "C" > v_edge COLLATE "C" ORDER BY i LIMIT 1;
        END IF;
        IF v_rank IS NULL THEN
          RETURN QUERY SELECT 'moved'::text, NULL::integer, NULL::text, v_edge;
          RETURN;
        END IF;
        UPDATE projects SET task_counter = task_counter + 1 WHERE id = p_project RETURNING task_counter INTO v_number;
        INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_by, created_at, updated_at)
        VALUES (p_id, p_project, v_number, p_title, p_description, v_rank, p_values, p_created_by, p_now, p_now);
        RETURN QUERY SELECT 'created'::text, v_number, v_rank, v_edge;
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION board_create_task(uuid, uuid, text, text, jsonb, uuid, timestamptz, boolean, text[], text)');
  }
}
