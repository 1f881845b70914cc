import { createProject, registerPerson, startTestApp, TestApp, Client } from '../support/test-app';
import { createTask, expectStatus } from '../support/fixtures';

/** The changelog lists shipped options newest first with their tasks; releases off reads empty. */
describe('GET /api/projects/:id/changelog', () => {
  let t: TestApp;
  let c: Client;
  let project: any;

  beforeAll(async () => {
    t = await startTestApp();
    c = (await registerPerson(t)).client;
    project = await createProject(c, 'Changes', 'CHG');
  });
  afterAll(() => t.close());

  const changelog = async () => expectStatus(c.get(`/projects/${project.id}/changelog`), 200);

  it('answers an empty list while releases and sprints are off', async () => {
    expect(await changelog()).toEqual({ changelog: [] });
  });

  it('lists shipped releases and sprints newest first with the tasks they carried', async () => {
    await expectStatus(c.patch(`/projects/${project.id}`, { releases: true, sprints: true }), 200);
    const board = await expectStatus(c.get(`/projects/${project.id}/board`), 200);
    const release = board.properties.find((p: any) => p.name === 'Release');
    const sprint = board.properties.find((p: any) => p.name === 'Sprint');
    const r1 = (await expectStatus(c.post(`/properties/${release.id}/options`, { name: '1.0', note: 'First' }), 201)).option;
    const r2 = (await expectStatus(c.post(`/properties/${release.id}/options`, { name: '1.1' }), 201)).option;
    const s1 = (await expectStatus(c.post(`/properties/${sprint.id}/options`, { name: 'Sprint 1' }), 201)).option;
    const a = await createTask(c, project.id, 'A', { [release.id]: r1.id, [sprint.id]: s1.id });
    const b = await createTask(c, project.id, 'B', { [release.id]: r1.id });
    await createTask(c, project.id, 'C', { [release.id]: r2.id });
    await t.sql.query(`UPDATE options SET shipped_at = '2026-01-10' WHERE id = $1`, [r1.id]);
    await t.sql.query(`UPDATE options SET shipped_at = '2026-02-01' WHERE id = $1`, [s1.id]);
    const res = await changelog();
    expect(res).toEqual({
      changelog: [
        { optionId: s1.id, propertyId: sprint.id, propertyName: 'Sprint', name: 'Sprint 1', shippedAt: '2026-02-01', note: null, tasks: [{ id: a.id, key: a.key, title: 'A' }] },
        {
          optionId: r1.id, propertyId: release.id, propertyName: 'Release', name: '1.0', shippedAt: '2026-01-10', note: 'First',
          tasks: [{ id: a.id, key: a.key, title: 'A' }, { id: b.id, key: b.key, title: 'B' }],
        },
      ],
    });
    // Releases off hides the releases again.
    await expectStatus(c.patch(`/projects/${project.id}`, { releases: false }), 200);
    expect((await changelog()).changelog.map((e: any) => e.optionId)).toEqual([s1.id]);
  });
});
