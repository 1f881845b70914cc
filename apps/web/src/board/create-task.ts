import type { QueryClient } from '@tanstack/react-query';
import { post } from '../api/client';
import type { Board, BoardTask } from '../api/types';
import { NONE } from '../api/types';
import type { Column } from './model';

/**
 * The values a new task takes to land in a column: the column's value of the grouping property.
 * The no-value column and an ungrouped view send nothing.
 */
export function columnValues(groupById: string | undefined, column: Column | undefined): Record<string, unknown> | undefined {
  if (!groupById || !column || column.id === NONE || column.value === null || column.value === undefined) return undefined;
  return { [groupById]: column.value };
}

/** The first column that holds a value (not "No …"): where the header box puts a new task. */
export const firstRealColumn = (columns: Column[]): Column | undefined => columns.find((c) => c.id !== NONE && c.value !== undefined);

/** Makes a task and shows it at once (the stream and the next read confirm it). */
export async function createTask(qc: QueryClient, board: Board, title: string, values?: Record<string, unknown>): Promise<BoardTask> {
  const a = await post<{ task: BoardTask }>(`/projects/${board.project.id}/tasks`, values ? { title, values } : { title });
  qc.setQueryData<Board>(['board', board.project.id], (b) =>
    b && !b.tasks.some((t) => t.id === a.task.id)
      ? { ...b, tasks: [...b.tasks, Object.assign({ checklistTotal: 0, checklistDone: 0, commentCount: 0, blockedBy: [], parts: null, archivedAt: null }, a.task)] }
      : b,
  );
  void qc.invalidateQueries({ queryKey: ['board', board.project.id] });
  return a.task;
}
