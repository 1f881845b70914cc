import { DAY } from '@board/kernel';
import { createProperty, createTask, expectStatus } from '../support/fixtures';
import { projectFeed } from '../support/builders-a';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import { ChartEvent, DAY0, expected, ScriptClock, scriptDay } from '../support/chart-replay';
import type { ChartDataAnswer, ProjectAnswer } from '../support/answers';

/**
 * Charts over tasks that came in by a Trello import and releases that shipped: the import on a
 * known day (archived cards included), value writes, deletes, three ships (rest next with strays,
 * next into an option a `when` rule does not show with, clear) and a second import, each under a
 * clock the test moves. Every point of every series is compared with the test's own replay; what
 * a ship does to each task is worked out here from the script, not read from the service.
 */
const STARTED = new Date();
const d = scriptDay;

type Prop = 'status' | 'release' | 'review';
const PROPS: Prop[] = ['status', 'release', 'review'];

/** A small Trello board export: lists (one closed), one label, cards (one closed). */
function trelloExport(cards: { id: string; name: string; list: string; closed?: boolean; label?: boolean }[]) {
  const lists = [
    { id: 'l-todo', name: 'To do', closed: false, pos: 1 },
    { id: 'l-doing', name: ' in progress ', closed: false, pos: 2 },
    { id: 'l-done', name: 'Done', closed: false, pos: 3 },
    { id: 'l-backlog', name: 'Backlog', closed: false, pos: 0 },
    { id: 'l-old', name: 'Old', closed: true, pos: 4 },
  ];
  return {
    id: 'board-1',
    name: 'Trello board',
    lists,
    labels: [{ id: 'lab-1', name: 'Urgent', color: 'red' }],
    cards: cards.map((c, i) => ({
      id: c.id, name: c.name, desc: '', closed: c.closed ?? false, pos: i + 1, idList: c.list, due: null, idLabels: c.label ? ['lab-1'] : [],
    })),
    checklists: [],
    actions: [],
  };
}

describe('chart data over imported tasks and shipped releases', () => {
  const clock = new ScriptClock();
  let t: TestApp;
  let pat: Person;
  let project: ProjectAnswer;
  let status: { id: string; name: string; options: { id: string; name: string; color?: string }[] };
  let release: { id: string; name: string; options: { id: string; name: string; color?: string }[] };
  let review: { id: string; name: string; options: { id: string; name: string; color?: string }[] };
  let prop: Record<Prop, string>;
  let shown: string[] = [];
  const events: Record<Prop, ChartEvent[]> = { status: [], release: [], review: [] };
  const tasks = new Map<string, { project: string }>();
  /** The test's model of every task: its three selects, archived, deleted. */
  const model = new Map<string, { values: Record<Prop, string | null>; archived: boolean; deleted: boolean; title: string }>();
  const answers: { answer: unknown; counts: Record<string, number> }[] = [];

  const optionOf = (p: { options: { id: string; name: string }[] }, name: string) => p.options.find((o) => o.name === name)!.id;
  const over = (_project: string, value: string | null) => value === optionOf(status, 'Done');

  const step = async <T>(write: () => Promise<T>, record: (at: number, result: T) => void | Promise<void>): Promise<T> => {
    const at = clock.t;
    const result = await write();
    // A forced clock: the history spans days, stamped on the feed lines the write just made.
    await t.sql.query(`UPDATE activity SET created_at = $1 WHERE created_at >= $2`, [new Date(at), STARTED]);
    await record(at, result);
    clock.t += 60_000;
    return result;
  };
  const onDay = (n: number) => (clock.t = DAY0 + n * DAY + 9 * 3600_000);

  const born = (at: number, id: string, title: string, values: Record<Prop, string | null>, archived: boolean) => {
    tasks.set(id, { project: project.id });
    model.set(id, { values: { ...values }, archived, deleted: false, title });
    for (const p of PROPS) events[p].push({ at, task: id, created: true, value: values[p] });
  };
  /** A value change in the model (and its event), with the review dropped when the release no longer shows it. */
  const change = (at: number, id: string, p: Prop, value: string | null) => {
    const task = model.get(id)!;
    if (task.values[p] === value) return;
    task.values[p] = value;
    events[p].push({ at, task: id, value });
    if (p === 'release' && task.values.review !== null && !shown.includes(value as string)) change(at, id, 'review', null);
  };
  const present = (at: number, id: string, here: boolean) => {
    model.get(id)!.deleted = !here;
    for (const p of PROPS) events[p].push({ at, task: id, present: here });
  };

  const create = (title: string, values: Partial<Record<Prop, string>>) =>
    step(
      () => createTask(pat.client, project.id, title, Object.fromEntries(Object.entries(values).map(([p, v]) => [prop[p as Prop], v]))),
      (at, task) => born(at, task.id, title, { status: null, release: null, review: null, ...values }, false),
    );
  const put = (id: string, p: Prop, value: string | null) =>
    step(() => expectStatus(pat.client.put(`/tasks/${id}/values/${prop[p]}`, { value }), 200), (at) => change(at, id, p, value));
  const remove = (id: string) => step(() => expectStatus(pat.client.delete(`/tasks/${id}`), 200), (at) => present(at, id, false));
  const restore = (id: string) => step(() => expectStatus(pat.client.post(`/tasks/${id}/restore`), 200), (at) => present(at, id, true));
  const byTitle = (title: string) => [...model.entries()].find(([, x]) => x.title === title)![0];

  /** An import: the model learns each new card from the export itself (its list's Status option, closed or in a closed list: archived). */
  const runImport = (board: ReturnType<typeof trelloExport>) =>
    step(
      () => expectStatus(pat.client.post(`/projects/${project.id}/import`, board), 200),
      async (at, body) => {
        const known = new Set([...model.values()].map((x) => x.title));
        const fresh = board.cards.filter((c) => !known.has(c.name));
        expect(body.imported).toBe(fresh.length);
        status = (await expectStatus(pat.client.get(`/projects/${project.id}/board`), 200)).properties.find((p) => p.id === status.id)!;
        // Storage itself: which task a card became (its source id) is shown by no route.
        const rows = (await t.sql.query(`SELECT s.source_id, t.id FROM task_sources s JOIN tasks t ON t.id = s.task_id WHERE s.project_id = $1`, [project.id])).rows;
        const idOf = new Map(rows.map((r) => [r.source_id, r.id]));
        for (const card of fresh) {
          const list = board.lists.find((l) => l.id === card.idList)!;
          // A closed list still becomes a Status option (decisions.md › Import): its cards come in archived, in it.
          const option = status.options.find((o) => o.name.toLowerCase() === list.name.trim().toLowerCase())!.id;
          born(at, idOf.get(card.id)!, card.name, { status: option, release: null, review: null }, card.closed || list.closed);
        }
      },
    );

  /** A ship, worked out on the model first: over holders archive, the rest follow `rest`, strays (over, live, in no release) are taken and archived. */
  const ship = (name: string, rest: 'next' | 'clear', strays = false) => {
    const option = optionOf(release, name);
    const open = release.options.slice(release.options.findIndex((o) => o.id === option) + 1);
    const next = rest === 'next' ? open.find((o) => !shipped.has(o.id))!.id : null;
    return step(
      () => expectStatus(pat.client.post(`/options/${option}/ship`, { rest, strays }), 200),
      (at, answer) => {
        const counts = { archived: 0, moved: 0, taken: 0 };
        for (const [id, task] of model) {
          if (task.deleted) continue;
          const isOver = task.values.status === optionOf(status, 'Done');
          if (task.values.release !== option) {
            if (!strays || !isOver || task.archived || task.values.release !== null) continue;
            change(at, id, 'release', option);
            task.archived = true;
            counts.taken++;
            counts.archived++;
          } else if (isOver) {
            if (!task.archived) counts.archived++;
            task.archived = true;
          } else if (!task.archived) {
            change(at, id, 'release', next);
            counts.moved++;
          }
        }
        shipped.add(option);
        answers.push({ answer, counts });
      },
    );
  };
  const shipped = new Set<string>();

  beforeAll(async () => {
    t = await startTestApp({ clock });
    pat = await registerPerson(t, 'Pat');
    project = await createProject(pat.client, 'Imported', 'IM');
    await expectStatus(pat.client.patch(`/projects/${project.id}`, { releases: true }), 200);
    const board = await expectStatus(pat.client.get(`/projects/${project.id}/board`), 200);
    status = board.properties.find((p) => p.name === 'Status')!;
    const releaseId = board.properties.find((p) => p.name === 'Release')!.id;
    for (const [i, name] of ['R1', 'R2', 'R3'].entries()) {
      await expectStatus(pat.client.post(`/properties/${releaseId}/options`, { name, targetOn: d(4 + 2 * i) }), 201);
    }
    release = (await expectStatus(pat.client.get(`/projects/${project.id}/board`), 200)).properties.find((p) => p.id === releaseId)!;
    review = await createProperty(pat.client, project.id, 'Review', 'select', ['Needed', 'Passed']);
    // Review shows only in R1 and R2: a task leaving them (a ship into R3, or a clear) loses it.
    shown = [optionOf(release, 'R1'), optionOf(release, 'R2')];
    await expectStatus(pat.client.patch(`/properties/${review.id}`, { when: { propertyId: release.id, optionIds: shown } }), 200);
    await expectStatus(pat.client.patch(`/projects/${project.id}`, { doneWhen: { propertyId: status.id, optionIds: [optionOf(status, 'Done')] } }), 200);
    prop = { status: status.id, release: release.id, review: review.id };

    onDay(0);
    await create('Native one', { status: optionOf(status, 'To do'), release: optionOf(release, 'R1'), review: optionOf(review, 'Needed') });
    await create('Native two', { status: optionOf(status, 'Done') });
    onDay(1);
    const cards = [
      { id: 'c-a', name: 'Alpha', list: 'l-todo' },
      { id: 'c-b', name: 'Beta', list: 'l-done', label: true },
      { id: 'c-c', name: 'Gamma', list: 'l-done', closed: true },
      { id: 'c-d', name: 'Delta', list: 'l-backlog' },
      { id: 'c-e', name: 'Epsilon', list: 'l-old' },
      { id: 'c-f', name: 'Zeta', list: 'l-doing' },
      { id: 'c-g', name: 'Eta', list: 'l-done' },
    ];
    await runImport(trelloExport(cards));
    onDay(2);
    for (const title of ['Alpha', 'Beta', 'Zeta']) await put(byTitle(title), 'release', optionOf(release, 'R1'));
    await put(byTitle('Alpha'), 'review', optionOf(review, 'Needed'));
    await put(byTitle('Zeta'), 'review', optionOf(review, 'Needed'));
    await put(byTitle('Delta'), 'release', optionOf(release, 'R2'));
    onDay(3);
    await put(byTitle('Zeta'), 'status', optionOf(status, 'Done'));
    await put(byTitle('Alpha'), 'status', optionOf(status, 'In progress'));
    onDay(4);
    await ship('R1', 'next', true);
    onDay(5);
    await remove(byTitle('Delta'));
    await put(byTitle('Alpha'), 'review', optionOf(review, 'Passed'));
    onDay(6);
    await ship('R2', 'next');
    onDay(7);
    await restore(byTitle('Delta'));
    await put(byTitle('Native one'), 'status', optionOf(status, 'Done'));
    onDay(8);
    await ship('R3', 'clear');
    // The same export again with one more card: only the new card comes in.
    await runImport(trelloExport([...cards, { id: 'c-h', name: 'Theta', list: 'l-done' }]));
    onDay(9);
    await put(byTitle('Alpha'), 'status', optionOf(status, 'Done'));
    await remove(byTitle('Eta'));
  });

  afterAll(async () => {
    await t?.close();
  });

  const chart = async (body: Record<string, unknown>) => (await expectStatus(pat.client.post('/charts', body), 201)).chart;
  const data = async (id: string, query: string) => expectStatus(pat.client.get<ChartDataAnswer>(`/charts/${id}/data${query}`), 200);
  const range = `?from=${d(-1)}&to=${d(10)}`;

  it('the script did what the test worked out (ship counts, archived imports)', () => {
    expect(answers.map((a) => a.answer)).toEqual(answers.map((a) => expect.objectContaining(a.counts)));
    expect(answers.map((a) => a.counts)).toEqual([{ archived: 4, moved: 2, taken: 2 }, { archived: 0, moved: 2, taken: 0 }, { archived: 1, moved: 1, taken: 0 }]);
    expect([...model.values()].filter((x) => x.archived).map((x) => x.title).sort()).toEqual(['Beta', 'Epsilon', 'Eta', 'Gamma', 'Native one', 'Native two', 'Zeta']);
  });

  it('burnup counts imported tasks from the import day, archived ones too, with their Status at creation', async () => {
    const c = await chart({ name: 'Burnup', kind: 'burnup', projectIds: [project.id] });
    const res = await data(c.id, range);
    const want = expected(events.status, tasks, res.days, { projects: [project.id], over });
    expect(res.series).toEqual([
      { key: 'total', name: 'Total', color: null, values: want.total },
      { key: 'done', name: 'Done', color: null, values: want.done },
    ]);
    expect(want.total).toEqual([0, 2, 9, 9, 9, 9, 8, 8, 9, 10, 9, 9]);
    expect(want.done).toEqual([0, 1, 4, 4, 5, 5, 5, 5, 6, 7, 7, 7]);
  });

  it('throughput counts an imported task that was over at creation on the import day', async () => {
    const c = await chart({ name: 'Pace', kind: 'throughput', projectIds: [project.id] });
    const res = await data(c.id, range);
    const want = expected(events.status, tasks, res.days, { projects: [project.id], over });
    expect(res.series).toEqual([{ key: 'done', name: 'Done', color: null, values: want.throughput }]);
  });

  for (const p of PROPS) {
    it(`flow over ${p}: every option on every day, through the import and the ships`, async () => {
      const property = { status, release, review }[p];
      const c = await chart({ name: `Flow ${p}`, kind: 'flow', projectIds: [project.id], propertyId: property.id });
      const res = await data(c.id, range);
      const keys = property.options.map((o) => o.id);
      const want = expected(events[p], tasks, res.days, { projects: [project.id], over, flowOptions: keys, flowProject: project.id });
      expect(res.series).toEqual([
        ...property.options.map((o, i) => ({ key: o.id, name: o.name, color: o.color ?? null, values: want.flow[i] })),
        { key: 'none', name: `No ${property.name}`, color: null, values: want.flow[keys.length] },
      ]);
    });
  }

  it('the model agrees with the tasks as they are now', async () => {
    // Storage itself: every task with its values, the archived and deleted ones too, which no one read shows.
    const rows = (await t.sql.query(`SELECT id, "values", archived_at, deleted_at FROM tasks WHERE project_id = $1`, [project.id])).rows;
    expect(rows).toHaveLength(model.size);
    for (const row of rows) {
      const m = model.get(row.id)!;
      expect({ values: PROPS.map((p) => row.values[prop[p]] ?? null), archived: row.archived_at !== null, deleted: row.deleted_at !== null }).toEqual({
        values: PROPS.map((p) => m.values[p]),
        archived: m.archived,
        deleted: m.deleted,
      });
    }
  });

  // Last: it changes the project. An option's delete scrubs it from the tasks and writes no line.
  it('an option deleted later counts as none on every day', async () => {
    const lines = async () => (await projectFeed(pat.client, project.id)).length;
    const before = await lines();
    for (const [p, name] of [[status, 'Backlog'], [review, 'Passed']] as const) await expectStatus(pat.client.delete(`/options/${optionOf(p, name)}`), 200);
    expect(await lines()).toBe(before);
    const now = (await expectStatus(pat.client.get(`/projects/${project.id}/board`), 200)).properties;
    for (const p of ['status', 'review'] as const) {
      const property = now.find((x) => x.id === prop[p])!;
      const c = await chart({ name: `After ${p}`, kind: 'flow', projectIds: [project.id], propertyId: property.id });
      const res = await data(c.id, range);
      const keys = property.options.map((o) => o.id);
      const want = expected(events[p], tasks, res.days, { projects: [project.id], over, flowOptions: keys, flowProject: project.id });
      expect(res.series.map((x) => x.values)).toEqual(want.flow);
      expect(res.series.map((x) => x.key)).toEqual([...keys, 'none']);
    }
  });
});
