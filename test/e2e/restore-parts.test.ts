import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

/** A restore never brings back a link that would make parts two levels deep. */
describe('restoring keeps parts one level deep', () => {
  let t: TestApp;
  let c: Client;
  let projectId: string;
  const task = async (title: string) => (await c.post(`/projects/${projectId}/tasks`, { title })).body.task;
  const parentOf = async (id: string) => (await c.get(`/tasks/${id}`)).body.task.parent;

  beforeAll(async () => {
    t = await startTestApp();
    c = (await registerPerson(t)).client;
    projectId = (await createProject(c, 'Parts', 'PRT')).id;
  });
  afterAll(() => t.close());

  it('drops the parent link of a restored part whose parent became a part meanwhile', async () => {
    const [p, child, x] = [await task('P'), await task('C'), await task('X')];
    expect((await c.put(`/tasks/${child.id}/parent`, { parentId: p.id })).status).toBe(200);
    expect((await c.delete(`/tasks/${child.id}`)).status).toBe(200);
    expect((await c.put(`/tasks/${p.id}/parent`, { parentId: x.id })).status).toBe(200);
    expect((await c.post(`/tasks/${child.id}/restore`)).status).toBe(200);
    expect(await parentOf(child.id)).toBeNull();
    expect((await parentOf(p.id))!.id).toBe(x.id);
  });

  it('keeps the link when nothing changed meanwhile', async () => {
    const [p, child] = [await task('P2'), await task('C2')];
    await c.put(`/tasks/${child.id}/parent`, { parentId: p.id });
    await c.delete(`/tasks/${child.id}`);
    await c.post(`/tasks/${child.id}/restore`);
    expect((await parentOf(child.id))!.id).toBe(p.id);
  });

  it('lets go of a part that gained parts while its parent was deleted', async () => {
    const [p, child, grandchild] = [await task('P3'), await task('C3'), await task('G3')];
    await c.put(`/tasks/${child.id}/parent`, { parentId: p.id });
    await c.delete(`/tasks/${p.id}`);
    // With its parent gone the child reads as no part, so it may take parts of its own.
    expect((await c.put(`/tasks/${grandchild.id}/parent`, { parentId: child.id })).status).toBe(200);
    await c.post(`/tasks/${p.id}/restore`);
    expect(await parentOf(child.id)).toBeNull();
    expect((await parentOf(grandchild.id))!.id).toBe(child.id);
    expect((await c.get(`/tasks/${p.id}`)).body.task.parts).toBeNull();
  });
});
