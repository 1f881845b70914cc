import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Moves without the project lock (issue #29, bench/README.md › Moves by their neighbours).
 *
 * 1. A project's ranks are distinct: the rank index becomes unique, so no write can ever leave two
 *    tasks on one rank, whatever path it took. Every writer of ranks kept them distinct already
 *    (they took them under the project lock); a project that holds a repeated rank anyway (rows
 *    written straight into the table) is ranked afresh first, in the order the board shows it
 *    (rank, then id), with whole keys of the rank format: 'd' and four base-62 digits.
 *
 * 2. `board_rank_gap` answers the gap a place lies in: for a place straight after the anchor, the
 *    anchor and the next task; straight before it, the task before and the anchor; at the end, the
 *    last task and nothing. The moving task is left out, deleted tasks count (they keep their rank
 *    for a restore). The service reads it before a move (no locks), `board_move_task` under them.
 *
 * 3. `board_move_task` gives the task a rank in its gap while holding only what that gap needs:
 *    - the rows of the task and of the gap's two tasks, locked in one statement in id order (as every
 *      write that locks several tasks does, so two moves never wait on each other in a circle);
 *    - the project lock as well when the gap is open at either end: the ends are where creates
 *      and imports append, under that lock, without locking a row.
 *    It reads the gap, takes those locks, and reads it again. If it is still the same two tasks at
 *    the same ranks, nobody else can write a rank inside it until this transaction ends (every
 *    move into it holds both of them; creates and imports write only past the last task or before
 *    the first, under the project lock, never inside a gap closed by rows held here), and neither
 *    of them can move, so the task lands straight after (or before) its anchor and stays so at
 *    commit: the order is the one some serial run of the moves would give. It takes the first
 *    offered rank inside the gap. If the gap changed meanwhile (another move landed in it first),
 *    the try's locks go with its subtransaction and it tries again with the gap as it is now, as
 *    long as an offer still fits it (the next mover to one place takes the next offer:
 *    `moveOffers`); otherwise it answers `shifted` with that gap, and the service offers anew. A lock wait that PostgreSQL ends as a
 *    deadlock (a restore or a purge locking tasks beside it) counts as a changed gap. The unique
 *    index stays the last word: a write that would repeat a rank is refused, and a move treats
 *    that as a changed gap too.
 *    Outcomes: `moved`, `stayed` (the first fitting offer is the rank the task holds: no write),
 *    `shifted`, `gone` (no such task or anchor any more).
 */
export class MovesByNeighbours1765001700000 implements MigrationInterface {
  name = 'MovesByNeighbours1765001700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      WITH repeated AS (
             SELECT DISTINCT project_id FROM tasks GROUP BY project_id, position COLLATE "C" HAVING count(*) > 1),
           ranked AS (
             SELECT t.id, (row_number() OVER (PARTITION BY t.project_id ORDER BY t.position COLLATE "C", t.id))::int AS n
               FROM tasks t WHERE t.project_id IN (SELECT project_id FROM repeated)),
           digits AS (SELECT '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'::text AS d)
      UPDATE tasks t
         SET position = 'd' || substr(d, (n / 238328) % 62 + 1, 1) || substr(d, (n / 3844) % 62 + 1, 1)
                            || substr(d, (n / 62) % 62 + 1, 1) || substr(d, n % 62 + 1, 1)
        FROM ranked r, digits
       WHERE t.id = r.id;

      DROP INDEX tasks_rank;
      CREATE UNIQUE INDEX tasks_rank ON tasks (project_id, position COLLATE "C");

      CREATE FUNCTION board_rank_gap(p_project uuid, p_task uuid, p_anchor uuid, p_side text)
      RETURNS TABLE (task_position text, anchor_position text, anchor_deleted boolean, lo_id uuid, lo_position text, hi_id uuid, hi_position text)
      LANGUAGE plpgsql STABLE AS $$
      BEGIN
        SELECT t.position INTO task_position FROM tasks t WHERE t.project_id = p_project AND t.id = p_task;
        IF p_side = 'end' THEN
          SELECT t.id, t.position INTO lo_id, lo_position FROM tasks t
           WHERE t.project_id = p_project AND t.id <> p_task ORDER BY t.position COLLATE "C" DESC LIMIT 1;
        ELSE
          SELECT t.position, t.deleted_at IS NOT NULL INTO anchor_position, anchor_deleted FROM tasks t
           WHERE t.project_id = p_project AND t.id = p_anchor;
          IF anchor_position IS NOT NULL AND p_side = 'after' THEN
            lo_id := p_anchor;
            lo_position := anchor_position;
            SELECT t.id, t.position INTO hi_id, hi_position FROM tasks t
             WHERE t.project_id = p_project AND t.id <> p_task AND t.position COLLATE "C" > anchor_position COLLATE "C"
             ORDER BY t.position COLLATE "C" LIMIT 1;
          ELSIF anchor_position IS NOT NULL THEN
            hi_id := p_anchor;
            hi_position := anchor_position;
            SELECT t.id, t.position INTO lo_id, lo_position FROM tasks t
             WHERE t.project_id = p_project AND t.id <> p_task AND t.position COLLATE "C" < anchor_position COLLATE "C"
             ORDER BY t.position COLLATE "C" DESC LIMIT 1;
          END IF;
        END IF;
        RETURN NEXT;
      END
      $$;

      CREATE FUNCTION board_move_task(p_project uuid, p_task uuid, p_anchor uuid, p_side text, p_offers text[])
      RETURNS TABLE (outcome text, task_position text, lo_id uuid, lo_position text, hi_id uuid, hi_position text)
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        v_ends_locked boolean := false;
        v_rank text;
        g record;
        held record;
      BEGIN
        FOR attempt IN 1..8 LOOP
          SELECT * INTO g FROM board_rank_gap(p_project, p_task, p_anchor, p_side);
          IF g.task_position IS NULL OR (p_side <> 'end' AND g.anchor_position IS NULL) THEN
            outcome := 'gone';
            RETURN NEXT;
            RETURN;
          END IF;
          lo_id := g.lo_id;
          lo_position := g.lo_position;
          hi_id := g.hi_id;
          hi_position := g.hi_position;
          -- No offer fits the gap as it is now: the service offers anew.
          SELECT u.r INTO v_rank FROM unnest(p_offers) WITH ORDINALITY AS u(r, i)
           WHERE (g.lo_position IS NULL OR u.r COLLATE "C" > g.lo_position COLLATE "C")
             AND (g.hi_position IS NULL OR u.r COLLATE "C" < g.hi_position COLLATE "C")
           ORDER BY u.i LIMIT 1;
          EXIT WHEN v_rank IS NULL;
          -- Taken before any row (as every holder of the project lock does) and kept: the
          -- subtransaction below does not take it, so it is not let go with one.
          IF (g.lo_id IS NULL OR g.hi_id IS NULL) AND NOT v_ends_locked THEN
            PERFORM pg_advisory_xact_lock(hashtextextended(p_project::text, 7));
            v_ends_locked := true;
            CONTINUE;
          END IF;
          BEGIN
            PERFORM 1 FROM tasks t WHERE t.project_id = p_project AND t.id IN (p_task, g.lo_id, g.hi_id) ORDER BY t.id FOR NO KEY UPDATE;
            -- A statement of its own: it sees every move that committed before the locks were granted.
            SELECT * INTO held FROM board_rank_gap(p_project, p_task, p_anchor, p_side);
            IF held.lo_id IS NOT DISTINCT FROM g.lo_id AND held.lo_position IS NOT DISTINCT FROM g.lo_position
               AND held.hi_id IS NOT DISTINCT FROM g.hi_id AND held.hi_position IS NOT DISTINCT FROM g.hi_position THEN
              IF v_rank = held.task_position THEN
                outcome := 'stayed';
              ELSE
                UPDATE tasks SET position = v_rank WHERE project_id = p_project AND id = p_task;
                outcome := 'moved';
              END IF;
              task_position := v_rank;
              RETURN NEXT;
              RETURN;
            END IF;
            -- Not this gap any more: let this try's row locks go with its subtransaction.
            RAISE EXCEPTION USING ERRCODE = 'TB001';
          EXCEPTION WHEN SQLSTATE 'TB001' OR deadlock_detected OR unique_violation THEN
            NULL;
          END;
        END LOOP;
        outcome := 'shifted';
        RETURN NEXT;
      END
      $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION board_move_task(uuid, uuid, uuid, text, text[]);
      DROP FUNCTION board_rank_gap(uuid, uuid, uuid, text);
      DROP INDEX tasks_rank;
      CREATE INDEX tasks_rank ON tasks (project_id, position COLLATE "C");
    `);
  }
}
