import type { QueryClient } from '@tanstack/react-query';
import { post } from '../api/client';
import type { Board, Property } from '../api/types';

export interface MoveTarget { beforeId?: string; afterId?: string; value?: { property: Property; value: unknown } }

/**
 * One move call: `beforeId` or `afterId` in the global rank and, across columns, the new value
 * in `values`. The cached board is reordered at once (the flat task list is the rank order) and
 * takes the server's position from the answer; a refusal re-reads the board.
 */
export async function moveTask(qc: QueryClient, projectId: string, taskId: string, target: MoveTarget): Promise<void> {
  const key = ['board', projectId];
  await qc.cancelQueries({ queryKey: key });
  qc.setQueryData<Board>(key, (board) => {
    if (!board) return board;
    const tasks = board.tasks.slice();
    const from = tasks.findIndex((t) => t.id === taskId);
    if (from < 0) return board;
    let [task] = tasks.splice(from, 1);
    if (target.value) task = { ...task, values: { ...task.values, [target.value.property.id]: target.value.value } };
    let at = tasks.length;
    if (target.beforeId) at = Math.max(0, tasks.findIndex((t) => t.id === target.beforeId));
    else if (target.afterId) at = tasks.findIndex((t) => t.id === target.afterId) + 1 || tasks.length;
    tasks.splice(at, 0, task);
    return { ...board, tasks };
  });
  const body: Record<string, unknown> = {};
  if (target.beforeId) body.beforeId = target.beforeId;
  else if (target.afterId) body.afterId = target.afterId;
  if (target.value) body.values = { [target.value.property.id]: target.value.value };
  try {
    const answer = await post<{ position: string }>(`/tasks/${taskId}/move`, body);
    qc.setQueryData<Board>(key, (board) =>
      board ? { ...board, tasks: board.tasks.map((t) => (t.id === taskId ? { ...t, position: answer.position } : t)) } : board,
    );
    if (target.value) void qc.invalidateQueries({ queryKey: ['task', taskId] });
  } catch (e) {
    void qc.invalidateQueries({ queryKey: key });
    throw e;
  }
}
