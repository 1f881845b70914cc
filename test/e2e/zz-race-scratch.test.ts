import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';
describe('race', () => {
  let t: TestApp;
  afterAll(() => t.close());
  it('archive vs delete / move', async () => {
    t = await startTestApp();
    const o = await registerPerson(t);
    const p = await createProject(o.client, 'R', 'RAC');
    let undeleted = 0;
    for (let i = 1; i <= 40; i++) {
      const task = (await o.client.post(`/projects/${p.id}/tasks`, { title: 'x' })).body.task;
      await Promise.all([o.client.delete(`/tasks/${task.id}`), o.client.post(`/tasks/${task.id}/archive`)]);
      const r = (await t.sql.query('SELECT deleted_at FROM tasks WHERE id=$1', [task.id])).rows[0];
      if (!r.deleted_at) undeleted++;
    }
    console.log('undeleted', undeleted);
    const a = (await o.client.post(`/projects/${p.id}/tasks`, { title: 'a' })).body.task;
    const b = (await o.client.post(`/projects/${p.id}/tasks`, { title: 'b' })).body.task;
    let lostMoves = 0;
    for (let i = 1; i <= 40; i++) {
      const [m] = await Promise.all([
        o.client.post(`/tasks/${a.id}/move`, i % 2 ? { afterId: b.id } : { beforeId: b.id }),
        i % 2 ? o.client.post(`/tasks/${a.id}/archive`) : o.client.delete(`/tasks/${a.id}/archive`),
      ]);
      const r = (await t.sql.query('SELECT position FROM tasks WHERE id=$1', [a.id])).rows[0];
      if (r.position !== m.body.position) lostMoves++;
    }
    console.log('lostMoves', lostMoves);
  }, 60000);
});
