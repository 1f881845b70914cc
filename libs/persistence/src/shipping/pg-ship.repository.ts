import { Injectable } from '@nestjs/common';
import { ShipRepository } from '@board/shipping';
import { Task } from '@board/tasks';
import { Database } from '../database';
import { sql } from '../sql';
import { TASK_COLUMNS, TaskRow, toTask } from '../tasks/tasks.table';
import { SHIP_TASK_COLUMNS } from './ship-tasks.table';

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
    const key = sql`${propertyId}::text`;
    const straysKey = sql`${strays?.propertyId ?? null}::text`;
    const rows = await this.db.query<TaskRow>(sql`SELECT ${TASK_COLUMNS} FROM tasks
      WHERE project_id = ${projectId} AND deleted_at IS NULL
        AND ("values" -> ${key} = to_jsonb(${optionId}::text)
             OR ${straysKey} IS NOT NULL AND archived_at IS NULL
                AND COALESCE("values" -> ${key}, 'null'::jsonb) IN ('null'::jsonb, '""'::jsonb)
                AND "values" -> ${straysKey} ?| ${strays?.optionIds ?? []}::text[])
      ORDER BY id FOR UPDATE`);
    return rows.map(toTask);
  }

  /** The option carries the day, and the tasks that shipped with it are kept beside it. */
  async markShipped(projectId: string, optionId: string, shipId: string, day: string, taskIds: readonly string[]): Promise<void> {
    await this.db.exec(sql`WITH shipped AS (UPDATE options SET shipped_at = ${day}::date WHERE project_id = ${projectId} AND id = ${optionId} RETURNING id)
      INSERT INTO ship_tasks (${SHIP_TASK_COLUMNS})
      SELECT ${projectId}::uuid, s.id, t.id, ${shipId}::uuid FROM shipped s, unnest(${taskIds}::uuid[]) AS t(id)
      ON CONFLICT (project_id, option_id, task_id) DO UPDATE SET ship_id = EXCLUDED.ship_id`);
  }

  /** A shipped day taken back: the option no longer says which tasks shipped with it. */
  async forget(projectId: string, optionId: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM ship_tasks WHERE project_id = ${projectId} AND option_id = ${optionId}`);
  }
}
