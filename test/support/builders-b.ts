/**
 * Reads of state through the API, for e2e suites that used to look into the tables: a task's values,
 * its feed lines, the board's tasks. Each throws with the status and body of an unexpected answer.
 *
 * Why the API can stand in for the table here: the task read's `values` are the stored values as
 * they are (no rule filters them), and its `activity` is the task's feed lines, newest first, the
 * last 60, without the `reset` and `rules` lines (which the read leaves out on purpose).
 */
import type { BoardAnswer, BoardTaskAnswer } from './answers';
import { expectStatus } from './fixtures';
import type { Client } from './test-app';

/** The task read (`GET /tasks/:taskId`), which must answer 200. */
export async function readTask(client: Client, taskId: string) {
  return (await expectStatus(client.get(`/tasks/${taskId}`), 200)).task;
}

/** A task's stored values, as the task read shows them. */
export async function valuesOf(client: Client, taskId: string): Promise<Record<string, unknown>> {
  return (await readTask(client, taskId)).values as Record<string, unknown>;
}

/** A feed line as the task read shows it, with its actor's id. */
export interface TaskFeedLine {
  kind: string;
  data: Record<string, unknown>;
  actorId: string | null;
}

/**
 * A task's feed lines, oldest first (the task read's last 60, turned around). `kind` keeps only
 * lines of that kind; `{ not: kind }` keeps all but that kind; leave it out for every line.
 */
export async function taskFeed(client: Client, taskId: string, kind?: string | { not: string }): Promise<TaskFeedLine[]> {
  const task = await readTask(client, taskId);
  const lines = (task.activity as { kind: string; data: Record<string, unknown>; actor: { id: string } | null }[])
    .map((a) => ({ kind: a.kind, data: a.data, actorId: a.actor?.id ?? null }))
    .reverse();
  if (typeof kind === 'string') return lines.filter((l) => l.kind === kind);
  if (kind) return lines.filter((l) => l.kind !== kind.not);
  return lines;
}

/** The project's board read, which must answer 200. */
export async function boardOf(client: Client, projectId: string): Promise<BoardAnswer> {
  return expectStatus(client.get<BoardAnswer>(`/projects/${projectId}/board`), 200);
}

/** The project's live tasks, in board order. */
export async function liveTasks(client: Client, projectId: string): Promise<BoardTaskAnswer[]> {
  return (await boardOf(client, projectId)).tasks;
}

/** A line of the project's feed (`GET /projects/:projectId/activity`), as it answers it. */
export interface ProjectFeedLine extends TaskFeedLine {
  taskId: string | null;
}

/**
 * The project's whole feed, oldest first, page after page (500 a page), with each line's task
 * and actor. Unlike the task read it keeps the lines of deleted tasks and has no cap of 60; within
 * one millisecond it orders by id, so two separate writes in the same millisecond may read either way.
 */
export async function projectFeed(client: Client, projectId: string): Promise<ProjectFeedLine[]> {
  type Page = { activity: { kind: string; data: Record<string, unknown>; taskId: string | null; actor: { id: string } | null }[]; next: { after: string; afterId: string } | null };
  const lines: ProjectFeedLine[] = [];
  let cursor = '';
  for (;;) {
    const page = await expectStatus(client.get<Page>(`/projects/${projectId}/activity?limit=500${cursor}`), 200);
    for (const a of page.activity) lines.push({ kind: a.kind, data: a.data, taskId: a.taskId, actorId: a.actor?.id ?? null });
    if (!page.next) return lines;
    cursor = `&after=${encodeURIComponent(page.next.after)}&afterId=${page.next.afterId}`;
  }
}

/** A task's lines of the project feed (deleted tasks too), oldest first, without `taskId`. */
export async function feedOfTask(client: Client, projectId: string, taskId: string): Promise<TaskFeedLine[]> {
  return (await projectFeed(client, projectId)).filter((l) => l.taskId === taskId).map(({ kind, data, actorId }) => ({ kind, data, actorId }));
}

/** A blocker link: `taskId` waits on `blockerId`. */
export interface LinkPair {
  taskId: string;
  blockerId: string;
}

/**
 * The blocker links touching any of the tasks, once each, sorted by task then blocker, read off
 * each task's `links` (both ends). The task read leaves out deleted tasks, so a link to or from a
 * deleted task does not show here.
 */
export async function linksAmong(client: Client, ...taskIds: string[]): Promise<LinkPair[]> {
  const pairs = new Map<string, LinkPair>();
  for (const id of taskIds) {
    const { links } = await readTask(client, id);
    for (const b of links.blockedBy) pairs.set(`${id} ${b.id}`, { taskId: id, blockerId: b.id });
    for (const w of links.blocks) pairs.set(`${w.id} ${id}`, { taskId: w.id, blockerId: id });
  }
  return [...pairs.values()].sort((x, y) => (x.taskId === y.taskId ? (x.blockerId < y.blockerId ? -1 : 1) : x.taskId < y.taskId ? -1 : 1));
}
