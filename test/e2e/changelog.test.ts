import { createProject, registerPerson, startTestApp, TestApp, Client } from '../support/test-app';
import { createTask, expectStatus } from '../support/fixtures';
import type { BoardAnswer, ProjectAnswer } from '../support/answers';

/**
 * The changelog lists shipped options newest first with the tasks that shipped with them (real
 * ships through the API); releases off reads empty.
 */
describe('GET /api/projects/:id/changelog', () => {
  let t: TestApp;
  let c: Client;
  let project: ProjectAnswer;
  let release: BoardAnswer['properties'][number];
  let sprint: BoardAnswer['properties'][number];
  let done: string;
  let todo: string;

  beforeAll(async () => {
    t = await startTestApp();
    c = (await registerPerson(t)).client;
    project = await createProject(c, 'Changes', 'CHG');
  });
  afterAll(() => t.close());

  const changelog = async () => expectStatus(c.get(`/projects/${project.id}/changelog`), 200);
  const option = async (propertyId: string, body: Record<string, unknown>) =>
    (await expectStatus(c.post(`/properties/${propertyId}/options`, { targetOn: '2026-06-30', ...body }), 201)).option;
  const ship = (optionId: string, body: Record<string, unknown>) => expectStatus(c.post(`/options/${optionId}/ship`, body), 200);
  const shipOn = async (day: string, optionId: string, body: Record<string, unknown>) => {
    await ship(optionId, body);
    // Ships land on today's day; the order test needs days apart (a forced clock).
    await t.sql.query(`UPDATE options SET shipped_at = $2 WHERE id = $1`, [optionId, day]);
  };

  it('answers an empty list while releases and sprints are off', async () => {
    expect(await changelog()).toEqual({ changelog: [] });
  });

  it('lists shipped releases and sprints newest first with the tasks that shipped with them', async () => {
    await expectStatus(c.patch(`/projects/${project.id}`, { releases: true, sprints: true }), 200);
    const board = await expectStatus(c.get(`/projects/${project.id}/board`), 200);
    release = board.properties.find((p) => p.name === 'Release')!;
    sprint = board.properties.find((p) => p.name === 'Sprint')!;
    const status = board.properties.find((p) => p.name === 'Status')!;
    done = status.options.find((o) => o.name === 'Done')!.id;
    todo = status.options.find((o) => o.name === 'To do')!.id;
    const r1 = await option(release.id, { name: '1.0', note: 'First **one**' });
    const r2 = await option(release.id, { name: '1.1' });
    const s1 = await option(sprint.id, { name: 'Sprint 1' });
    await option(sprint.id, { name: 'Sprint 2' });
    const a = await createTask(c, project.id, 'A', { [release.id]: r1.id, [sprint.id]: s1.id, [status.id]: done });
    const b = await createTask(c, project.id, 'B', { [release.id]: r1.id, [status.id]: done });
    const open = await createTask(c, project.id, 'Open', { [release.id]: r1.id, [status.id]: todo });
    await createTask(c, project.id, 'C', { [release.id]: r2.id, [status.id]: done });
    await shipOn('2026-01-10', r1.id, { rest: 'next' });
    await shipOn('2026-02-01', s1.id, { rest: 'next' });
    const res = await changelog();
    expect(res).toEqual({
      changelog: [
        // A was archived by the release ship; it still shipped with the sprint it held.
        { optionId: s1.id, propertyId: sprint.id, propertyName: 'Sprint', name: 'Sprint 1', shippedAt: '2026-02-01', note: null, tasks: [{ id: a.id, key: a.key, title: 'A' }] },
        {
          optionId: r1.id, propertyId: release.id, propertyName: 'Release', name: '1.0', shippedAt: '2026-01-10', note: 'First **one**',
          tasks: [{ id: a.id, key: a.key, title: 'A' }, { id: b.id, key: b.key, title: 'B' }],
        },
      ],
    });
    // The open task moved on to 1.1 and is not in 1.0's entry.
    expect(res.changelog[1].tasks.map((x) => x.id)).not.toContain(open.id);
  });

  it('keeps an entry true after its tasks move on, and leaves deleted tasks out', async () => {
    const before = await changelog();
    const entry = before.changelog.find((e) => e.name === '1.0')!;
    const [a, b] = entry.tasks;
    // A task that shipped is put back on the board and moved to another release: the entry stands.
    await expectStatus(c.delete(`/tasks/${a.id}/archive`), 200);
    const r3 = await option(release.id, { name: '2.0' });
    await expectStatus(c.put(`/tasks/${a.id}/values/${release.id}`, { value: r3.id }), 200);
    await expectStatus(c.put(`/tasks/${a.id}/values/${release.id}`, { value: null }), 200);
    expect((await changelog()).changelog.find((e) => e.name === '1.0')!.tasks.map((x) => x.id)).toEqual([a.id, b.id]);
    await expectStatus(c.delete(`/tasks/${b.id}`), 200);
    expect((await changelog()).changelog.find((e) => e.name === '1.0')!.tasks.map((x) => x.id)).toEqual([a.id]);
    await expectStatus(c.post(`/tasks/${b.id}/restore`), 200);
  });

  it('lists a ship that carried no task with an empty list', async () => {
    const empty = await option(release.id, { name: '0.9' });
    await ship(empty.id, { rest: 'leave' });
    const entry = (await changelog()).changelog.find((e) => e.optionId === empty.id)!;
    expect(entry).toMatchObject({ name: '0.9', tasks: [], note: null, shippedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('hides the sprints while sprints are off, and everything while releases are off', async () => {
    await expectStatus(c.patch(`/projects/${project.id}`, { sprints: false }), 200);
    expect((await changelog()).changelog.map((e) => e.propertyName)).not.toContain('Sprint');
    expect((await changelog()).changelog.length).toBeGreaterThan(0);
    await expectStatus(c.patch(`/projects/${project.id}`, { sprints: true, releases: false }), 200);
    expect(await changelog()).toEqual({ changelog: [] });
  });
});
