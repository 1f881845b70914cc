/**
 * More typed set-up and reads for end-to-end suites, all through the API (beside builders.ts, so
 * the two can grow without clashing), for tests to show state through the contract, not SQL:
 * - `projectFeed`: every line of a project's feed, oldest first, page after page;
 * - `taskFeed`: a task's feed lines as the project's feed shows them, oldest first, deleted task
 *   included (the task read would answer 404 then);
 * - `taskActivity`: a live or archived task's lines as its full read shows them;
 * - `readTask`: the full task read (`GET /tasks/:taskId`), which shows its checklist, comments,
 *   values, `archivedAt`, `updatedAt` and newest activity;
 * - `deleteTask`: deletes a task through the API;
 * - `aChecklistItem`, `aComment`: a task's checklist item (ticked or not) and comment.
 */
import type { RouteAnswer } from './routes';
import { expectStatus } from './fixtures';
import type { Client } from './test-app';

/** A line of the project feed (`GET /projects/:projectId/activity`). */
export type FeedLineAnswer = RouteAnswer<'get', `/projects/${string}/activity`>['activity'][number];

/** What a test reads of a feed line: what it says, who said it, and about which task. */
export interface TaskFeedLine {
  kind: string;
  data: Record<string, unknown>;
  actorId: string | null;
  taskId: string | null;
}

/** Every line of a project's feed, oldest first, page after page. */
export async function projectFeed(client: Client, projectId: string): Promise<FeedLineAnswer[]> {
  const lines: FeedLineAnswer[] = [];
  let cursor = '';
  for (;;) {
    const page: RouteAnswer<'get', `/projects/${string}/activity`> = await expectStatus(
      client.get(`/projects/${projectId}/activity?order=oldest&limit=500${cursor}`),
      200,
    );
    lines.push(...page.activity);
    if (!page.next) return lines;
    cursor = `&after=${encodeURIComponent(page.next.after)}&afterId=${page.next.afterId}`;
  }
}

/**
 * A task's feed lines, oldest first, as the project feed shows them (so a line stored under
 * another project would not be read): `kind` keeps only lines of that kind.
 */
export async function taskFeed(client: Client, projectId: string, taskId: string, kind?: string): Promise<TaskFeedLine[]> {
  return (await projectFeed(client, projectId))
    .filter((l) => l.taskId === taskId && (kind === undefined || l.kind === kind))
    .map((l) => ({ kind: l.kind, data: l.data as Record<string, unknown>, actorId: l.actor?.id ?? null, taskId: l.taskId }));
}

/** A task in full (`GET /tasks/:taskId`); throws unless the answer is 200. */
export type FullTaskAnswer = RouteAnswer<'get', `/tasks/${string}`>['task'];
export async function readTask(client: Client, taskId: string): Promise<FullTaskAnswer> {
  return (await expectStatus(client.get(`/tasks/${taskId}`), 200)).task;
}

/** Deletes a task (`DELETE /tasks/:taskId`); throws unless the answer is 200. */
export async function deleteTask(client: Client, taskId: string): Promise<void> {
  await expectStatus(client.delete(`/tasks/${taskId}`), 200);
}

/** A checklist item added to a task (and ticked when `done`); answers the item. */
export async function aChecklistItem(client: Client, taskId: string, text: string, done = false): Promise<RouteAnswer<'post', `/tasks/${string}/checklist`>['item']> {
  const { item } = await expectStatus(client.post(`/tasks/${taskId}/checklist`, { text }), 201);
  if (!done) return item;
  await expectStatus(client.patch(`/checklist/${item.id}`, { done: true }), 200);
  return { ...item, done: true };
}

/** A comment on a task, as whoever `client` is; answers the comment. */
export async function aComment(client: Client, taskId: string, body: string): Promise<RouteAnswer<'post', `/tasks/${string}/comments`>['comment']> {
  return (await expectStatus(client.post(`/tasks/${taskId}/comments`, { body }), 201)).comment;
}

/**
 * A live or archived task's feed lines as its full read shows them (the newest 60), oldest first,
 * with who wrote each: `kind` keeps only lines of that kind. For a deleted task, `taskFeed`.
 */
export async function taskActivity(client: Client, taskId: string, kind?: string): Promise<{ kind: string; data: Record<string, unknown>; actorId: string | null }[]> {
  return (await readTask(client, taskId)).activity
    .filter((l) => kind === undefined || l.kind === kind)
    .reverse()
    .map((l) => ({ kind: l.kind, data: l.data as Record<string, unknown>, actorId: l.actor?.id ?? null }));
}
