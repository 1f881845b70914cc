/**
 * More typed set-up and reads for end-to-end suites, through the API (beside builders.ts and
 * builders-a, -b and -d, so they can grow without clashing):
 * - `aPile`: many tasks made a few at a time, when only how many counts (not their order);
 * - `propertyOf`: one property as the board reads it, its config and options included;
 * - `deliveriesSince`: the deliveries a project's webhooks wrote after a mark, read off each
 *   webhook's delivery list;
 * - `feedSize`: how many feed lines all the caller's projects hold together;
 * - `exportOf`: the whole project as its export shows it — every task (archived and deleted
 *   ones too, with values, checklist, comments, card sources and shipped options), every feed
 *   line, and the card views, groupings and doneWhen as they are kept, not as a read cleans them.
 */
import type { BoardAnswer, DeliveryAnswer, TaskAnswer } from './answers';
import { boardOf, projectFeed } from './builders-b';
import { createTaskFromBody, expectStatus } from './fixtures';
import type { RouteAnswer } from './routes';
import type { Client } from './test-app';

/**
 * Creates `n` tasks titled `${title} 1…n` in a project, `atOnce` requests at a time (their board
 * order is not kept: `aBoard` keeps it). Answers the tasks in title order.
 */
export async function aPile(client: Client, projectId: string, n: number, options: { title?: string; atOnce?: number } = {}): Promise<TaskAnswer[]> {
  const tasks: TaskAnswer[] = [];
  const atOnce = options.atOnce ?? 20;
  for (let from = 0; from < n; from += atOnce) {
    const batch = Array.from({ length: Math.min(atOnce, n - from) }, (_, i) =>
      createTaskFromBody(client, projectId, { title: `${options.title ?? 'Task'} ${from + i + 1}` }),
    );
    tasks.push(...(await Promise.all(batch)));
  }
  return tasks;
}

/** A property as the board reads it. */
export type BoardPropertyAnswer = BoardAnswer['properties'][number];

/** A project's property by id, as its board reads it (config read afresh, options in order); throws when there is none. */
export async function propertyOf(client: Client, projectId: string, propertyId: string): Promise<BoardPropertyAnswer> {
  const found = (await boardOf(client, projectId)).properties.find((p) => p.id === propertyId);
  if (!found) throw new Error(`project ${projectId} has no property ${propertyId}`);
  return found;
}

/** A delivery as its webhook's list shows it, with the webhook's id. */
export interface WebhookDelivery extends DeliveryAnswer {
  webhookId: string;
}

/**
 * Marks the deliveries of every webhook of a project (as its owner or an admin) and answers a read
 * of those written since: the ones each webhook's list shows now and did not at the mark. A list
 * shows a webhook's newest 20, so fewer than 20 a webhook may come between the mark and the read.
 */
export async function deliveriesSince(client: Client, projectId: string): Promise<() => Promise<WebhookDelivery[]>> {
  const all = async (): Promise<WebhookDelivery[]> => {
    const { webhooks } = await expectStatus(client.get(`/projects/${projectId}/webhooks`), 200);
    const found: WebhookDelivery[] = [];
    for (const w of webhooks) {
      const { deliveries } = await expectStatus(client.get(`/projects/${projectId}/webhooks/${w.id}/deliveries`), 200);
      found.push(...deliveries.map((d) => ({ ...d, webhookId: w.id })));
    }
    return found;
  };
  const seen = new Set((await all()).map((d) => d.id));
  return async () => (await all()).filter((d) => !seen.has(d.id));
}

/** How many feed lines the projects the caller is in hold together (each project's whole feed). */
export async function feedSize(client: Client): Promise<number> {
  const { projects } = await expectStatus(client.get('/projects'), 200);
  let lines = 0;
  for (const p of projects) lines += (await projectFeed(client, p.id)).length;
  return lines;
}

type ExportAnswer = RouteAnswer<'get', `/projects/${string}/export`>;
type Rows = Record<string, { place: string; mode: string }>;

/** The export document, with the parts its API type leaves open typed as the export writes them. */
export type ProjectExport = Omit<ExportAnswer, 'project' | 'properties' | 'views' | 'cardView' | 'tasks' | 'activity'> & {
  project: Omit<ExportAnswer['project'], 'doneWhen'> & { doneWhen: { propertyId: string; optionIds: string[] } | null };
  properties: (Omit<ExportAnswer['properties'][number], 'config' | 'options'> & {
    config: Record<string, unknown>;
    options: { id: string; name: string; color: string; position: string; shippedAt: string | null }[];
  })[];
  views: (Omit<ExportAnswer['views'][number], 'cardView'> & { cardView: { rows: Rows } | null })[];
  cardView: { rows?: Rows };
  tasks: (Omit<ExportAnswer['tasks'][number], 'checklist' | 'comments' | 'shipped'> & {
    checklist: { id: string; text: string; done: boolean; position: string }[];
    comments: { id: string; body: string; createdAt: string; author: { id: string | null; name: string | null } }[];
    shipped: { optionId: string; shipId: string }[];
  })[];
  activity: (Omit<ExportAnswer['activity'][number], 'data'> & { data: Record<string, unknown> })[];
};

/** The project's export (`GET /projects/:projectId/export`, as its owner or an admin), which must answer 200. */
export async function exportOf(client: Client, projectId: string): Promise<ProjectExport> {
  return (await expectStatus(client.get(`/projects/${projectId}/export`), 200)) as ProjectExport;
}
