import { fail } from '@board/kernel';

export interface Link {
  taskId: string;
  blockerId: string;
}

export interface TaskRef {
  id: string;
  key: string;
}

/**
 * Would "task waits on blocker" close a circle? It does when the blocker already waits on the
 * task, directly or through others. Refuses with the keys of both ends.
 */
export function assertNoCircle(links: readonly Link[], task: TaskRef, blocker: TaskRef): void {
  if (task.id === blocker.id) fail('link.self');
  const waitsOn = new Map<string, string[]>();
  for (const l of links) {
    const list = waitsOn.get(l.taskId);
    if (list) list.push(l.blockerId);
    else waitsOn.set(l.taskId, [l.blockerId]);
  }
  const seen = new Set<string>([blocker.id]);
  const stack = [blocker.id];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    for (const next of waitsOn.get(current) ?? []) {
      if (next === task.id) fail('link.circle', { blocker: blocker.key, task: task.key });
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
}

export interface PartRef extends TaskRef {
  /** Key of the task's own parent, if it is a part. */
  parentKey: string | null;
  hasParts: boolean;
}

/** Parts are one level deep: a part has no parts, and a task with parts is no part. */
export function assertCanBePart(task: PartRef, parent: PartRef): void {
  if (task.id === parent.id) fail('parent.self');
  if (parent.parentKey) fail('parent.is_part', { task: parent.key, parent: parent.parentKey });
  if (task.hasParts) fail('parent.has_parts', { task: task.key });
}
