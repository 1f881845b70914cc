import { MigrationInterface, QueryRunner } from 'typeorm';
import { CreateTaskFunction1764374400000 } from './1764374400000-create-task-function';

/**
 * A project holds at most 50,000 tasks, live and archived (decisions.md › Fair use). Counting
 * them on every create would scan the project under its lock, so the project row keeps the count
 * (`task_count`, tasks not in the bin):
 *
 * - the statements that hand out task numbers add to it in the same UPDATE of the project row
 *   (`board_create_task` here, the locked create and the import in libs/persistence); both
 *   creates refuse past the limit in that very UPDATE, so a create costs no extra statement and
 *   two creates at the limit take turns on the row: the second sees the first's count (an
 *   import checks its whole plan against the count first, under the project lock);
 * - a task going to the bin or coming back moves it by a trigger, fired only when `deleted_at`
 *   flips between null and not null (a value write or a move never fires it); a restore checks
 *   for room first, under the project lock;
 * - the purge removes only tasks already in the bin, and a project's delete takes its row along.
 *
 * A project already past the limit (an import before this rule) keeps its tasks and can still
 * lose some; it only takes no new ones until it is back under.
 */
export class ProjectTaskCount1765000200000 implements MigrationInterface {
  name = 'ProjectTaskCount1765000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE projects ADD COLUMN task_count integer NOT NULL DEFAULT 0;
      UPDATE projects p SET task_count = (SELECT count(*) FROM tasks t WHERE t.project_id = p.id AND t.deleted_at IS NULL);

      CREATE FUNCTION board_count_bin_move() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE projects SET task_count = task_count + CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END WHERE id = NEW.project_id;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER tasks_count_bin_move AFTER UPDATE OF deleted_at ON tasks
        FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
        EXECUTE FUNCTION board_count_bin_move();

      DROP FUNCTION board_create_task(uuid, uuid, text, text, jsonb, uuid, timestamptz, boolean, text[], text);
      CREATE FUNCTION board_create_task(
        p_project uuid, p_id uuid, p_title text, p_description text, p_values jsonb, p_created_by uuid,
        p_now timestamptz, p_at_top boolean, p_ranks text[], p_defs text, p_max_tasks integer
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
        -- The number and the count in one row update: refused (nothing written) when the project is full.
        UPDATE projects SET task_counter = task_counter + 1, task_count = task_count + 1
         WHERE id = p_project AND task_count < p_max_tasks RETURNING task_counter INTO v_number;
        IF v_number IS NULL AND EXISTS (SELECT 1 FROM projects WHERE id = p_project) THEN
          RETURN QUERY SELECT 'full'::text, NULL::integer, NULL::text, NULL::text;
          RETURN;
        END IF;
        INSERT INTO tasks (id, project_id, number, title, description, position, "values", created_by, created_at, updated_at)
        VALUES (p_id, p_project, v_number, p_title, p_description, v_rank, p_values, p_created_by, p_now, p_now);
        RETURN QUERY SELECT 'created'::text, v_number, v_rank, v_edge;
      END
      $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER tasks_count_bin_move ON tasks;
      DROP FUNCTION board_count_bin_move();
      DROP FUNCTION board_create_task(uuid, uuid, text, text, jsonb, uuid, timestamptz, boolean, text[], text, integer);
      ALTER TABLE projects DROP COLUMN task_count;
    `);
    await new CreateTaskFunction1764374400000().up(q);
  }
}
