import { randomUUID } from 'node:crypto';
import { ActivityKind, ActivityLine, Change, WriteEvent } from '@board/kernel';
import { NotificationIntent, notificationIntents, PeopleOf } from '@board/notifications';

/** Feed lines of one project that go in one statement, and how their webhooks ring. */
export interface LineBatch {
  projectId: string;
  lines: readonly ActivityLine[];
  /** Ring each webhook once about the project with the first of these kinds it listens to; null: once per line. */
  ringOnce: readonly ActivityKind[] | null;
}

/**
 * What a write's declared events come to in storage: batches of feed lines (each line with its
 * webhook outbox rows) and stream notices. The one place that turns events into writes, for the
 * transactional unit of work (`PgUnitOfWork.write`) and the one-statement form
 * (`PgUnitOfWork.writeStatement`) alike, so what else a write causes is derived here once.
 */
export interface EventWrites {
  batches: LineBatch[];
  notices: Change[];
  /** What people are told (`notificationIntents`); `peopleOf` names who a comment may mention. */
  intents: NotificationIntent[];
}

/** Consecutive lines of one project join one batch; order is kept. */
export function eventWrites(events: readonly WriteEvent[], peopleOf?: PeopleOf): EventWrites {
  const batches: LineBatch[] = [];
  const notices: Change[] = [];
  let open: { projectId: string; lines: ActivityLine[]; ringOnce: null } | null = null;
  for (const event of events) {
    if (event.type === 'line') {
      if (!open || open.projectId !== event.line.projectId) batches.push((open = { projectId: event.line.projectId, lines: [], ringOnce: null }));
      open.lines.push(event.line);
    } else if (event.type === 'lines-ringing-once') {
      open = null;
      if (event.lines.length > 0) batches.push({ projectId: oneProject(event.lines), lines: event.lines, ringOnce: event.kinds });
    } else if (event.type === 'notice') notices.push(event.change);
  }
  return { batches, notices, intents: notificationIntents(events, peopleOf) };
}

function oneProject(lines: readonly ActivityLine[]): string {
  const projectId = lines[0].projectId;
  if (lines.some((l) => l.projectId !== projectId)) throw new Error('lines ringing once are of one project');
  return projectId;
}

/**
 * A batch's values for `linesWriteCtes` (feed.sql.ts), as parallel arrays in line order. Ids
 * ascend in line order: lines stamped in the same millisecond still read in order (feed order is
 * created_at to the millisecond, then id). `assigned` is not stored.
 */
export function lineValues(batch: Pick<LineBatch, 'projectId' | 'lines'>) {
  const { lines } = batch;
  return {
    project: batch.projectId,
    ids: lines.map(() => randomUUID()).sort(),
    tasks: lines.map((l) => l.taskId),
    actors: lines.map((l) => l.actorId),
    kinds: lines.map((l) => l.kind),
    data: lines.map((l) => JSON.stringify(l.data)),
  };
}
