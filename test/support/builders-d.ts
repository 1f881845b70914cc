/**
 * More typed set-up and reads for end-to-end suites, through the API (beside builders.ts,
 * builders-a.ts and builders-b.ts, so they can grow without clashing):
 * - `anAdmin`: a person added to a project as an admin;
 * - `tasksByNumber`: the ids of a project's first (or last) live tasks by number, through its main view;
 * - `tokenIdOf`: the id of an agent's token, as the token list shows it.
 */
import type { ViewTasksAnswer } from './answers';
import { expectStatus } from './fixtures';
import { addMember, Client, Person, registerPerson, TestApp } from './test-app';

/** Registers a person and adds them to a project as an admin (as its owner). */
export async function anAdmin(t: TestApp, owner: Client, projectId: string, name = 'Ada'): Promise<Person> {
  const admin = await registerPerson(t, name);
  await addMember(owner, projectId, admin, 'admin');
  return admin;
}

/**
 * The ids of a project's first `limit` live, unarchived tasks by number (`desc`: the last ones),
 * read through its main view sorted by key, which keeps that sort afterwards. Cheap on a project
 * of 50,000 tasks, where the board read is not.
 */
export async function tasksByNumber(client: Client, projectId: string, limit: number, direction: 'asc' | 'desc' = 'asc'): Promise<string[]> {
  const { views } = await expectStatus(client.get(`/projects/${projectId}/settings`), 200);
  const main = views.find((v) => v.isDefault);
  if (!main) throw new Error(`project ${projectId} has no main view`);
  await expectStatus(client.patch(`/views/${main.id}`, { sort: { columnId: '_key', direction } }), 200);
  const page = await expectStatus(client.get<ViewTasksAnswer>(`/views/${main.id}/tasks?limit=${limit}`), 200);
  return page.tasks.map((task) => task.id);
}

/** The id of an agent's token (its only one, or the first listed), from the project's token list. */
export async function tokenIdOf(owner: Client, projectId: string, agentId: string): Promise<string> {
  const { tokens } = await expectStatus(owner.get(`/projects/${projectId}/tokens`), 200);
  const token = tokens.find((x) => x.agentId === agentId);
  if (!token) throw new Error(`agent ${agentId} has no token in project ${projectId}`);
  return token.id;
}
