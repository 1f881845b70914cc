import { Person, registerPerson, startTestApp, TestApp, addMember } from '../support/test-app';
import { aProject, Prop } from '../support/builders';
import { createTask, expectStatus } from '../support/fixtures';
import type { BoardAnswer, ProjectAnswer } from '../support/answers';
import type { RouteAnswer } from '../support/routes';

/**
 * Board reads reuse the serialised task lists while the project's rows are unchanged. Every kind
 * of write, on this instance or another, and even a change made straight in SQL, must show on
 * the very next read.
 */
describe('board read cache', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: Person;
  let other: Person;
  let project: ProjectAnswer;
  let status: Prop;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl });
    owner = await registerPerson(a);
    other = await registerPerson(a, 'Other');
    ({ project, status } = await aProject(owner.client, { name: 'Cached', key: 'CCH' }));
    await addMember(owner.client, project.id, other);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  // Reads go to instance A; writes go to instance B (same database).
  const boardOnA = () => expectStatus(owner.client.get(`/projects/${project.id}/board`), 200);
  const onB = (path: string) => `${b.api}${path}`;
  const writeOnB = async <M extends 'PUT' | 'POST' | 'PATCH' | 'DELETE', P extends string>(method: M, path: P, body?: unknown) => {
    const res = await fetch(onB(path), {
      method,
      headers: { cookie: `service_session=${other.client.cookie}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    return res.status === 204 ? null : ((await res.json()) as RouteAnswer<Lowercase<M>, P>);
  };
  const taskOn = (board: BoardAnswer, id: string) => board.tasks.find((t) => t.id === id);

  it('answers the same board twice when nothing changed, with the JSON content type', async () => {
    await createTask(owner.client, project.id, 'Stable');
    const res1 = await owner.client.get(`/projects/${project.id}/board`);
    const res2 = await owner.client.get(`/projects/${project.id}/board`);
    expect(res1.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res2.body).toEqual(res1.body);
  });

  it('shows every kind of write made on another instance on the next read', async () => {
    const t1 = await createTask(owner.client, project.id, 'One');
    const t2 = await createTask(owner.client, project.id, 'Two');
    await boardOnA();

    await writeOnB('PUT', `/tasks/${t1.id}/values/${status.id}`, { value: status.options[2].id });
    expect(taskOn(await boardOnA(), t1.id)!.values[status.id]).toBe(status.options[2].id);

    await writeOnB('PATCH', `/tasks/${t1.id}`, { title: 'One renamed' });
    expect(taskOn(await boardOnA(), t1.id)!.title).toBe('One renamed');

    await writeOnB('POST', `/tasks/${t1.id}/comments`, { body: 'hello' });
    expect(taskOn(await boardOnA(), t1.id)!.commentCount).toBe(1);

    const item = (await writeOnB('POST', `/tasks/${t1.id}/checklist`, { text: 'step' }))!.item;
    expect(taskOn(await boardOnA(), t1.id)!.checklistTotal).toBe(1);
    await writeOnB('PATCH', `/checklist/${item.id}`, { done: true });
    expect(taskOn(await boardOnA(), t1.id)!.checklistDone).toBe(1);

    await writeOnB('POST', `/tasks/${t2.id}/blockers`, { blockerId: t1.id });
    // t1 is Done, so it blocks nothing visible; put it back to To do and the block shows.
    await writeOnB('PUT', `/tasks/${t1.id}/values/${status.id}`, { value: status.options[0].id });
    expect(taskOn(await boardOnA(), t2.id)!.blockedBy).toEqual([t1.key]);

    await writeOnB('PUT', `/tasks/${t2.id}/parent`, { parentId: t1.id });
    expect(taskOn(await boardOnA(), t1.id)!.parts).toEqual({ done: 0, total: 1 });

    await writeOnB('POST', `/tasks/${t2.id}/move`, { beforeId: t1.id });
    const moved = await boardOnA();
    expect(moved.tasks.findIndex((t) => t.id === t2.id)).toBeLessThan(moved.tasks.findIndex((t) => t.id === t1.id));

    await writeOnB('POST', `/tasks/${t2.id}/archive`);
    const archived = await boardOnA();
    expect(taskOn(archived, t2.id)).toBeUndefined();
    expect(archived.archived.map((x) => x.id)).toContain(t2.id);

    await writeOnB('DELETE', `/tasks/${t1.id}`);
    expect(taskOn(await boardOnA(), t1.id)).toBeUndefined();
  });

  it('follows the project key and doneWhen, and changes made straight in SQL', async () => {
    const t3 = await createTask(owner.client, project.id, 'Three');
    await boardOnA();
    await expectStatus(owner.client.patch(`/projects/${project.id}`, { key: 'CCX' }), 200);
    expect(taskOn(await boardOnA(), t3.id)!.key).toBe(`CCX-${t3.number}`);
    // Storage itself: a write that goes around the app, which no notice announces.
    await a.sql.query(`UPDATE tasks SET title = 'Edited in SQL' WHERE id = $1`, [t3.id]);
    expect(taskOn(await boardOnA(), t3.id)!.title).toBe('Edited in SQL');
    const settings = await expectStatus(owner.client.get(`/projects/${project.id}/settings`), 200);
    expect(settings.taskCount).toBe((await boardOnA()).tasks.length);
  });
});
