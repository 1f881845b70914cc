import { Injectable } from '@nestjs/common';
import { StatementWrite } from '@board/kernel';
import { MoveContext, MoveInput, MoveOutcome, MovePlace, RankGap, TaskMoveRepository } from '@board/tasks';
import { Database } from '../database';
import { StatementShape } from '../activity/pg-statement-write';
import { compileOnce, sql } from '../sql';

/** A gap as `board_rank_gap` and `board_move_task` answer it (migration 1765001700000). */
interface GapColumns {
  lo_id: string | null;
  lo_position: string | null;
  hi_id: string | null;
  hi_position: string | null;
}

interface ReadRow extends GapColumns {
  task_position: string | null;
  anchor_position: string | null;
  anchor_deleted: boolean | null;
}

interface MoveRow extends GapColumns {
  outcome: 'moved' | 'stayed' | 'shifted' | 'gone';
  task_position: string | null;
}

type MoveSlot = 'projectId' | 'taskId' | 'anchorId' | 'side' | 'offers';

// Compiled once: the texts are also the prepared statements' keys.
const READ = compileOnce<'projectId' | 'taskId' | 'anchorId' | 'side'>(
  (slot) => sql`SELECT * FROM board_rank_gap(${slot('projectId')}, ${slot('taskId')}, ${slot('anchorId')}::uuid, ${slot('side')})`,
);

const moveCall = (slot: (name: MoveSlot) => unknown) =>
  sql`board_move_task(${slot('projectId')}, ${slot('taskId')}, ${slot('anchorId')}::uuid, ${slot('side')}, ${slot('offers')}::text[])`;

const MOVE_ALONE = compileOnce<MoveSlot>((slot) => sql`SELECT * FROM ${moveCall(slot)}`);

// One shape: the unit of work adds the move's notice, gated on `landed` (a rank written).
const MOVE = new StatementShape<MoveSlot, MoveRow, MoveOutcome>(
  (slot) => ({
    ctes: sql`m AS MATERIALIZED (SELECT * FROM ${moveCall(slot)}),
       landed AS (SELECT 1 FROM m WHERE m.outcome = 'moved')`,
    columns: sql`m.outcome, m.task_position, m.lo_id, m.lo_position, m.hi_id, m.hi_position`,
    from: sql`m`,
  }),
  (row) => outcomeOf(row),
);

/**
 * Moves on `board_move_task` (migration 1765001700000, which says why this is enough): the task's
 * row and its gap's two rows held in id order, the project lock only at the two ends. A bare move
 * is one statement with its notice; a move with values runs the same function in its transaction.
 */
@Injectable()
export class PgTaskMoveRepository extends TaskMoveRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async read(projectId: string, taskId: string, place: MovePlace): Promise<MoveContext> {
    const row = await this.db.single<ReadRow>(READ.text, READ.values({ projectId, taskId, anchorId: place.anchorId, side: place.side }), { prepare: true });
    return {
      task: row.task_position === null ? null : { position: row.task_position },
      anchor: row.anchor_position === null ? null : { deleted: row.anchor_deleted === true },
      gap: gapOf(row),
    };
  }

  move(input: MoveInput): StatementWrite<MoveOutcome> {
    return MOVE.with(slotsOf(input));
  }

  async moveInTransaction(input: MoveInput): Promise<MoveOutcome> {
    if (!this.db.inTransaction) throw new Error('moveInTransaction runs inside the caller’s transaction');
    return outcomeOf(await this.db.single<MoveRow>(MOVE_ALONE.text, MOVE_ALONE.values(slotsOf(input)), { prepare: true }));
  }
}

function slotsOf(input: MoveInput): Record<MoveSlot, unknown> {
  return {
    projectId: input.projectId,
    taskId: input.taskId,
    anchorId: input.place.anchorId,
    side: input.place.side,
    offers: input.offers,
  };
}

function gapOf(row: GapColumns): RankGap {
  return {
    lo: row.lo_id === null ? null : { id: row.lo_id, position: row.lo_position as string },
    hi: row.hi_id === null ? null : { id: row.hi_id, position: row.hi_position as string },
  };
}

function outcomeOf(row: MoveRow): MoveOutcome {
  if (row.outcome === 'moved' || row.outcome === 'stayed') return { outcome: row.outcome, position: row.task_position as string };
  if (row.outcome === 'shifted') return { outcome: 'shifted', gap: gapOf(row) };
  return { outcome: 'gone' };
}
