import { ActivityLine, feedLine, notice, WriteEvent } from '@board/kernel';
import { ValueLine } from '@board/tasks';
import { ProjectCaller } from '../auth/auth-context';

/** The events the task writes declare, by the caller: shared by the task, bulk and link services. */

/** A feed line by the caller. */
export function lineBy(caller: ProjectCaller, taskId: string | null, kind: ActivityLine['kind'], data: ActivityLine['data'], assigned?: ActivityLine['assigned']): ActivityLine {
  const line: ActivityLine = { projectId: caller.projectId, taskId, actorId: caller.userId, kind, data };
  if (assigned && assigned.length > 0) line.assigned = assigned;
  return line;
}

/** A feed line by the caller, as an event of its write. */
export function lineEvent(caller: ProjectCaller, taskId: string | null, kind: ActivityLine['kind'], data: ActivityLine['data']): WriteEvent {
  return feedLine(lineBy(caller, taskId, kind, data));
}

/** The `value` lines of a value write (`Task.putValues`), with the people each assigned. */
export function valueLineEvents(caller: ProjectCaller, taskId: string, lines: readonly ValueLine[]): WriteEvent[] {
  return lines.map((l) => feedLine(lineBy(caller, taskId, 'value', l.data, l.assigned)));
}

/** A stream notice of the caller's write. */
export function noticeEvent(caller: ProjectCaller, scope: 'board' | 'task' | 'project', taskId?: string): WriteEvent {
  return notice({ projectId: caller.projectId, scope, taskId: taskId ?? null, clientId: caller.clientId });
}
