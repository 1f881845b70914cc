import { createProperty, createTask, expectStatus } from '../support/fixtures';
import { taskFeed } from '../support/builders-a';
import { addMember, Client, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * A value write and a create check against the project's property definitions and members as they
 * are now. Any change to them, made on another instance or straight in SQL, must show on the very
 * next write here: new options and members are taken, deleted ones refused, renamed ones named
 * anew in the feed. (Guards any per-instance copy of the definitions: one was tried and dropped,
 * bench/README.md finding 19.)
 */
describe('property definitions as they are now', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: Person;
  let onB: Client;

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.databaseUrl });
    owner = await registerPerson(a, 'Owner');
    onB = new Client(b.api);
    onB.cookie = owner.client.cookie;
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const lastLine = async (projectId: string, taskId: string) => (await taskFeed(owner.client, projectId, taskId, 'value')).at(-1)?.data;

  it('follows options added, renamed and deleted on another instance', async () => {
    const p = await createProject(owner.client, 'Kept', 'KPT');
    const stage = await createProperty(owner.client, p.id, 'Stage', 'select', ['Open']);
    const task = await createTask(owner.client, p.id, 'Watched');
    const put = (value: unknown) => owner.client.put(`/tasks/${task.id}/values/${stage.id}`, { value });
    await expectStatus(put(stage.options[0].id), 200);

    const added = (await expectStatus(onB.post(`/properties/${stage.id}/options`, { name: 'Shipped' }), 201)).option;
    await expectStatus(put(added.id), 200);
    expect(await lastLine(p.id, task.id)).toMatchObject({ property: 'Stage', value: 'Shipped' });

    await expectStatus(onB.patch(`/options/${added.id}`, { name: 'Released' }), 200);
    await expectStatus(put(stage.options[0].id), 200);
    await expectStatus(put(added.id), 200);
    expect(await lastLine(p.id, task.id)).toMatchObject({ value: 'Released' });

    // Renamed straight in SQL (storage itself: a change no notice announces): no notice, no API, still seen.
    await a.sql.query('UPDATE options SET name = $2 WHERE id = $1', [added.id, 'Gone live']);
    await expectStatus(put(stage.options[0].id), 200);
    await expectStatus(put(added.id), 200);
    expect(await lastLine(p.id, task.id)).toMatchObject({ value: 'Gone live' });

    await expectStatus(onB.delete(`/options/${added.id}`), 200);
    expect((await put(added.id)).status).toBe(400);
    // A create checks against the same: the deleted option is refused, a new one taken.
    expect((await owner.client.post(`/projects/${p.id}/tasks`, { title: 'With old', values: { [stage.id]: added.id } })).status).toBe(400);
    const fresh = (await expectStatus(onB.post(`/properties/${stage.id}/options`, { name: 'Fresh' }), 201)).option;
    expect((await owner.client.post(`/projects/${p.id}/tasks`, { title: 'With new', values: { [stage.id]: fresh.id } })).status).toBe(201);
  });

  it('follows properties and members added or removed elsewhere, and people renamed', async () => {
    const p = await createProject(owner.client, 'People', 'PPL');
    const who = await createProperty(owner.client, p.id, 'Who', 'person');
    const task = await createTask(owner.client, p.id, 'Assigned');
    await expectStatus(owner.client.put(`/tasks/${task.id}/values/${who.id}`, { value: owner.user.id }), 200);
    await expectStatus(owner.client.post(`/projects/${p.id}/tasks`, { title: 'Warm the create', values: { [who.id]: owner.user.id } }), 201);

    const helper = await registerPerson(a, 'Helper');
    expect((await owner.client.put(`/tasks/${task.id}/values/${who.id}`, { value: helper.user.id })).status).toBe(400);
    expect((await owner.client.post(`/projects/${p.id}/tasks`, { title: 'Not yet', values: { [who.id]: helper.user.id } })).status).toBe(400);
    await addMember(onB, p.id, helper);
    await expectStatus(owner.client.put(`/tasks/${task.id}/values/${who.id}`, { value: helper.user.id }), 200);
    expect(await lastLine(p.id, task.id)).toMatchObject({ property: 'Who', value: 'Helper' });
    await expectStatus(owner.client.post(`/projects/${p.id}/tasks`, { title: 'Now', values: { [who.id]: helper.user.id } }), 201);

    // A person renamed (their user row, not the membership) is named anew: renamed in SQL, so no notice announces it.
    await expectStatus(owner.client.put(`/tasks/${task.id}/values/${who.id}`, { value: owner.user.id }), 200);
    await a.sql.query('UPDATE users SET name = $2 WHERE id = $1', [helper.user.id, 'Helper Renamed']);
    await expectStatus(owner.client.put(`/tasks/${task.id}/values/${who.id}`, { value: helper.user.id }), 200);
    expect(await lastLine(p.id, task.id)).toMatchObject({ value: 'Helper Renamed' });

    // A property added elsewhere is writable here; one deleted elsewhere is not.
    const size = await createProperty(onB, p.id, 'Size', 'number');
    await expectStatus(owner.client.put(`/tasks/${task.id}/values/${size.id}`, { value: 3 }), 200);
    await expectStatus(onB.delete(`/properties/${size.id}`), 200);
    expect((await owner.client.put(`/tasks/${task.id}/values/${size.id}`, { value: 4 })).status).toBe(400);
  });
});
