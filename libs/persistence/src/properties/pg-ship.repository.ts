import { Injectable } from '@nestjs/common';
import { ShipRepository } from '@board/shipping';
import { Task } from '@board/tasks';
import { Database } from '../database';
import { TASK_COLUMNS, TaskRow, toTask } from '../tasks/typeorm-task.repository';

/**
 * Storage of option ships: the tasks a ship looks at, the day it carries and the tasks that
 * shipped with it (`ship_tasks`, so the changelog stays true after tasks move on). Each call is
 * one statement, whatever the number of tasks.
 */
@Injectable()
export class PgShipRepository extends ShipRepository {
  constructor(private readonly db: Database) {
    super();
  }

  /**
   * Live and archived tasks holding the option, and with `strays` the live tasks in no release
   * whose `strays.propertyId` holds one of its options (the over ones): held until the transaction
   * ends, locked in id order (like the bulk writes, so two writers cannot deadlock).
   */
  async tasksFor(projectId: string, propertyId: string, optionId: string, strays: { propertyId: string; optionIds: string[] } | null): Promise<Task[]> {
    const rows = await this.db.query<TaskRow>(
      `SELECT ${TASK_COLUMNS} FROM tasks
        WHERE project_id = $1 AND deleted_at IS NULL
          AND ("values" -> $2::text = to_jsonb($3::text)
               OR $4::text IS NOT NULL AND archived_at IS NULL
                  AND COALESCE("values" -> $2::text, 'null'::jsonb) IN ('null'::jsonb, '""'::jsonb)
                  AND "values" -> $4::text ?| $5::text[])
        ORDER BY id FOR UPDATE`,
      [projectId, propertyId, optionId, strays?.propertyId ?? null, strays?.optionIds ?? []],
    );
    return rows.map(toTask);
  }

  /** The option carries the day, and the tasks that shipped with it are kept beside it. */
  async markShipped(projectId: string, optionId: string, shipId: string, day: string, taskIds: readonly string[]): Promise<void> {
    await this.db.exec(
      `WITH shipped AS (UPDATE options SET shipped_at = $3::date WHERE project_id = $1 AND id = $2 RETURNING id)
       INSERT INTO ship_tasks (project_id, option_id, task_id, ship_id)
       SELECT $1, s.id, t.id, $4 FROM shipped s, unnest($5::uuid[]) AS t(id)
       ON CONFLICT (project_id, option_id, task_id) DO UPDATE SET ship_id = EXCLUDED.ship_id`,
      [projectId, optionId, day, shipId, taskIds],
    );
  }

  /** A shipped day taken back: the option no longer says which tasks shipped with it. */
  async forget(projectId: string, optionId: string): Promise<void> {
    await this.db.exec(`DELETE FROM ship_tasks WHERE project_id = $1 AND option_id = $2`, [projectId, optionId]);
  }
}
