import { expectError, expectStatus } from '../support/fixtures';
import { Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/** extensions.md § 5: POST /api/projects takes `template` — `empty` (the default) or `team`. */

const TEMPLATE_ERROR = 'Template must be one of: empty, team.';

interface BoardProperty {
  id: string;
  name: string;
  type: string;
  options: { id: string; name: string; color: string }[];
}

describe('project templates', () => {
  let t: TestApp;
  let pat: Person;

  beforeAll(async () => {
    t = await startTestApp();
    pat = await registerPerson(t, 'Pat');
  });
  afterAll(() => t.close());

  const boardOf = async (projectId: string) => expectStatus(pat.client.get(`/projects/${projectId}/board`), 200);
  const make = async (body: Record<string, unknown>) => (await expectStatus(pat.client.post('/projects', body), 201)).project;
  const count = async (sql: string, params: unknown[]) => Number((await t.sql.query(sql, params)).rows[0].n);
  const projectCount = async () => (await expectStatus(pat.client.get('/projects'), 200)).projects.length;

  it('without a template makes the contract\'s new project: Status only', async () => {
    const project = await make({ name: 'Plain one' });
    const board = await boardOf(project.id);
    expect(board.properties.map((p: BoardProperty) => p.name)).toEqual(['Status']);
  });

  it('`empty` (and null) make the same bare project', async () => {
    for (const template of ['empty', null]) {
      const project = await make({ name: `Bare ${template}`, template });
      const board = await boardOf(project.id);
      expect(board.properties.map((p: BoardProperty) => p.name)).toEqual(['Status']);
      expect(Object.keys(board.cardView.rows)).toHaveLength(2);
    }
  });

  it('`team` adds Assignee, Due, Priority and Labels after Status, in that order, with their options', async () => {
    const project = await make({ name: 'Team one', template: 'team' });
    expect(Object.keys(project).sort()).toEqual(['createdAt', 'dailyBudgetMicros', 'doneWhen', 'id', 'key', 'name', 'ownerId', 'releases', 'role', 'sprints']);
    const board = await boardOf(project.id);
    const props: BoardProperty[] = board.properties;
    expect(props.map((p) => [p.name, p.type])).toEqual([
      ['Status', 'select'],
      ['Assignee', 'person'],
      ['Due', 'date'],
      ['Priority', 'select'],
      ['Labels', 'multi_select'],
    ]);
    const byName = Object.fromEntries(props.map((p) => [p.name, p]));
    expect(byName.Status.options.map((o) => o.name)).toEqual(['To do', 'In progress', 'Done']);
    expect(byName.Priority.options.map((o) => o.name)).toEqual(['Urgent', 'High', 'Medium', 'Low']);
    expect(byName.Labels.options.map((o) => o.name)).toEqual(['Bug', 'Feature', 'Chore']);
    expect(byName.Assignee.options).toEqual([]);
    expect(byName.Due.options).toEqual([]);
    // Options of one property differ in colour; Done stays what counts as over.
    expect(new Set(byName.Priority.options.map((o) => o.color)).size).toBe(4);
    expect(project.doneWhen).toEqual({ propertyId: byName.Status.id, optionIds: [byName.Status.options[2].id] });
    // Everything stored belongs to the project. Storage itself: each row carries the project's id.
    expect(await count('SELECT count(*) AS n FROM properties WHERE project_id = $1', [project.id])).toBe(5);
    expect(await count('SELECT count(*) AS n FROM options WHERE project_id = $1', [project.id])).toBe(10);
  });

  it('`team` puts them on the card: the assignee\'s avatar, the due date, the priority and the labels', async () => {
    const project = await make({ name: 'Team cards', template: 'team' });
    const board = await boardOf(project.id);
    const id = Object.fromEntries((board.properties as BoardProperty[]).map((p) => [p.name, p.id]));
    expect(board.cardView.rows).toEqual({
      _title: { place: 'title', mode: 'fixed' },
      [id.Status]: { place: 'headerL', mode: 'colour' },
      [id.Assignee]: { place: 'footer', mode: 'avatar' },
      [id.Due]: { place: 'footer', mode: 'text' },
      [id.Priority]: { place: 'headerR', mode: 'text' },
      [id.Labels]: { place: 'footer', mode: 'text' },
    });
  });

  it('a team project takes values on its new properties at once', async () => {
    const project = await make({ name: 'Team values', template: 'team' });
    const board = await boardOf(project.id);
    const byName = Object.fromEntries((board.properties as BoardProperty[]).map((p) => [p.name, p]));
    const res = await pat.client.post(`/projects/${project.id}/tasks`, {
      title: 'Ship it',
      values: {
        [byName.Assignee.id]: pat.user.id,
        [byName.Due.id]: '2026-12-01',
        [byName.Priority.id]: byName.Priority.options[1].id,
        [byName.Labels.id]: [byName.Labels.options[0].id],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.task.values[byName.Priority.id]).toBe(byName.Priority.options[1].id);
    expect(res.body.task.values[byName.Due.id]).toBe('2026-12-01');
  });

  it.each([['team '], ['Team'], ['kanban'], [''], [3], [true], [['team']], [{}]])('refuses template %j with 400 and makes nothing', async (template) => {
    const before = await projectCount();
    const res = await pat.client.post('/projects', { name: 'Refused one', template });
    expectError(res, 400, TEMPLATE_ERROR);
    expect(await projectCount()).toBe(before);
  });

  it('a bad name is refused before the template', async () => {
    const res = await pat.client.post('/projects', { name: '', template: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error).not.toBe(TEMPLATE_ERROR);
  });
});
