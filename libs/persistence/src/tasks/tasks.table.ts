import { Task } from '@board/tasks';
import { raw, Sql, sql } from '../sql';
import { ROW_VERSION } from './fingerprint.sql';
import type { TaskValues } from '@board/properties';

/** `tasks`: one column list per shape a read selects, each with its row. */

const columnList = (names: readonly string[], alias: string): string => names.map((c) => alias + c).join(', ');

/** The aggregate's columns (`Task`). */
const TASK_COLUMN_NAMES = ['id', 'project_id', 'number', 'title', 'description', 'position', '"values"', 'parent_id', 'archived_at', 'deleted_at'] as const;

/** The aggregate's columns, optionally of an alias (`t.`). */
export const taskColumns = (alias = ''): Sql => raw(columnList(TASK_COLUMN_NAMES, alias));
export const TASK_COLUMNS = taskColumns();

export interface TaskRow {
  id: string;
  project_id: string;
  number: number;
  title: string;
  description: string;
  position: string;
  values: TaskValues;
  parent_id: string | null;
  archived_at: Date | null;
  deleted_at: Date | null;
}

export const toTask = (r: TaskRow): Task =>
  Task.restore({
    id: r.id,
    projectId: r.project_id,
    number: r.number,
    title: r.title,
    description: r.description,
    position: r.position,
    values: r.values ?? {},
    parentId: r.parent_id,
    archivedAt: r.archived_at,
    deletedAt: r.deleted_at,
  });

/** What every board-shaped read selects (`BoardTask` of task.query.ts). */
const BOARD_COLUMN_NAMES = ['id', 'number', 'title', 'description', 'position', 'created_at', 'updated_at', 'archived_at', '"values"', 'parent_id'] as const;

/** The board shape's columns, optionally of an alias (`t.`). */
export const boardTaskColumns = (alias = ''): Sql => raw(boardColumnText(alias));
/** The same as text, for statements not yet written as `sql` templates. */
export const boardColumnText = (alias = ''): string => columnList(BOARD_COLUMN_NAMES, alias);

export interface BoardRow {
  id: string;
  number: number;
  title: string;
  description: string;
  position: string;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  values: TaskValues;
  parent_id: string | null;
}

/** A task as a link, parent or part shows it (key, title, whether it is over), of alias `alias`. */
export const linkTaskColumns = (alias: string): Sql => raw(columnList(['id', 'number', 'title', '"values"'], `${alias}.`));

export interface LinkTaskRow {
  id: string;
  number: number;
  title: string;
  values: TaskValues;
}

/**
 * A task row as the board lists read it: timestamps as UTC text and values as the jsonb's own
 * text, so that building the lists decodes nothing that is only passed through (bench/README.md,
 * finding 10), and `x`, the row's xmin: the id of the transaction that wrote this version of it.
 */
export interface ListRow {
  id: string;
  x: string;
  number: number;
  title: string;
  description: string;
  position: string;
  created: string;
  updated: string;
  archived: string | null;
  values_text: string;
  parent_id: string | null;
}

export const LIST_COLUMNS = sql`id, ${ROW_VERSION} AS x, number, title, description, position,
  (created_at AT TIME ZONE 'UTC')::text AS created, (updated_at AT TIME ZONE 'UTC')::text AS updated,
  (archived_at AT TIME ZONE 'UTC')::text AS archived, "values"::text AS values_text, parent_id`;
