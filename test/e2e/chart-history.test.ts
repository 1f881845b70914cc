import { DAY } from '@board/kernel';
import { createTask, expectStatus } from '../support/fixtures';
import { aProject, optionId, Prop } from '../support/builders';
import { addMember, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';
import { ChartEvent as Event, DAY0, expected, ScriptClock, scriptDay } from '../support/chart-replay';
import type { ChartDataAnswer, ProjectAnswer } from '../support/answers';

/**
 * Charts against a scripted history: tasks created, moved between options, done, archived,
 * deleted and restored on known days, written through the API under a clock the test moves (feed
 * lines, stamped by the database, are re-dated to that clock after each step). Every point of
 * every series is compared with a replay of the script written here in plain TypeScript.
 */
const STARTED = new Date();
const d = scriptDay;

describe('chart data over a scripted history', () => {
  const clock = new ScriptClock();
  let t: TestApp;
  let pat: Person;
  let alpha: ProjectAnswer;
  let beta: ProjectAnswer;
  let statusA: Prop;
  let statusB: Prop;
  const events: Event[] = [];
  const tasks = new Map<string, { project: string }>();
  const opt = optionId;

  /** Runs one write at the clock's time, re-dates the feed lines it wrote to that time, and moves the clock a minute on. */
  const step = async <T>(write: () => Promise<T>, record: (at: number, result: T) => void): Promise<T> => {
    const at = clock.t;
    const result = await write();
    // A forced clock: the history spans days, stamped on the feed lines the write just made.
    await t.sql.query(`UPDATE activity SET created_at = $1 WHERE created_at >= $2`, [new Date(at), STARTED]);
    record(at, result);
    clock.t += 60_000;
    return result;
  };
  const onDay = (n: number) => (clock.t = DAY0 + n * DAY + 9 * 3600_000);
  const create = (project: ProjectAnswer, title: string, value: string | null) =>
    step(
      () => createTask(pat.client, project.id, title, value ? { [project.id === alpha.id ? statusA.id : statusB.id]: value } : undefined),
      (at, task) => {
        tasks.set(task.id, { project: project.id });
        events.push({ at, task: task.id, created: true, value });
      },
    );
  const move = (task: { id: string }, value: string | null) =>
    step(
      () => expectStatus(pat.client.put(`/tasks/${task.id}/values/${tasks.get(task.id)!.project === alpha.id ? statusA.id : statusB.id}`, { value }), 200),
      (at) => events.push({ at, task: task.id, value }),
    );
  const remove = (task: { id: string }) => step(() => expectStatus(pat.client.delete(`/tasks/${task.id}`), 200), (at) => events.push({ at, task: task.id, present: false }));
  const restore = (task: { id: string }) => step(() => expectStatus(pat.client.post(`/tasks/${task.id}/restore`), 200), (at) => events.push({ at, task: task.id, present: true }));
  const archive = (task: { id: string }) => step(() => expectStatus(pat.client.post(`/tasks/${task.id}/archive`), 200), () => undefined);

  beforeAll(async () => {
    t = await startTestApp({ clock });
    pat = await registerPerson(t, 'Pat');
    ({ project: alpha, status: statusA } = await aProject(pat.client, { name: 'Alpha', key: 'AL' }));
    ({ project: beta, status: statusB } = await aProject(pat.client, { name: 'Beta', key: 'BE' }));
    // Beta calls both In progress and Done over: each project's own doneWhen decides.
    await expectStatus(pat.client.patch(`/projects/${beta.id}`, { doneWhen: { propertyId: statusB.id, optionIds: [opt(statusB, 'In progress'), opt(statusB, 'Done')] } }), 200);

    const [todo, doing, done] = ['To do', 'In progress', 'Done'].map((n) => opt(statusA, n));
    onDay(0);
    const t1 = await create(alpha, 'One', todo);
    const t2 = await create(alpha, 'Two', null);
    const t3 = await create(alpha, 'Three', done);
    onDay(1);
    await move(t1, doing);
    const b1 = await create(beta, 'Bee', opt(statusB, 'To do'));
    onDay(2);
    await move(t1, done);
    await move(t2, todo);
    await move(b1, opt(statusB, 'In progress'));
    onDay(3);
    await archive(t1);
    await move(t3, doing);
    onDay(4);
    await move(t3, done);
    await remove(t2);
    await move(b1, opt(statusB, 'Done'));
    onDay(5);
    await restore(t2);
    await remove(b1);
    onDay(6);
    await move(t2, done);
    await move(t2, todo);
    await move(t2, done);
    await move(t2, todo);
    onDay(7);
    await remove(t1);
    await restore(b1);
    const t5 = await create(alpha, 'Brief', done);
    await remove(t5);
    onDay(8);
    await move(t3, null);
    await move(t3, doing);
    await move(t3, done);
    onDay(9);
    await restore(t1);
    await move(t2, done);
    onDay(10);
    // The locked paths: a move that also sets a value, and a bulk value write (t2 is Done already: no line).
    await step(
      () => expectStatus(pat.client.post(`/tasks/${t3.id}/move`, { afterId: t1.id, values: { [statusA.id]: todo } }), 200),
      (at) => events.push({ at, task: t3.id, value: todo }),
    );
    await step(
      () => expectStatus(pat.client.post(`/projects/${alpha.id}/tasks/values`, { taskIds: [t2.id, t3.id], propertyId: statusA.id, value: done }), 200),
      (at) => events.push({ at, task: t3.id, value: done }),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  const chart = async (body: Record<string, unknown>) => (await expectStatus(pat.client.post('/charts', body), 201)).chart;
  const data = async (id: string, query = '') => expectStatus(pat.client.get<ChartDataAnswer>(`/charts/${id}/data${query}`), 200);
  const over = (project: string, value: string | null) =>
    project === alpha.id ? value === opt(statusA, 'Done') : value === opt(statusB, 'In progress') || value === opt(statusB, 'Done');

  it('burnup: total and done on every day over two projects, each by its own doneWhen', async () => {
    const c = await chart({ name: 'Both', kind: 'burnup', projectIds: [alpha.id, beta.id] });
    const res = await data(c.id, `?from=${d(-2)}&to=${d(11)}`);
    expect(res.days).toHaveLength(14);
    const want = expected(events, tasks, res.days, { projects: [alpha.id, beta.id], over });
    expect(res.series).toEqual([
      { key: 'total', name: 'Total', color: null, values: want.total },
      { key: 'done', name: 'Done', color: null, values: want.done },
    ]);
    // The script is not trivial: the series move both ways.
    expect(want.total).toEqual([0, 0, 3, 4, 4, 4, 3, 3, 3, 3, 3, 4, 4, 4]);
    expect(want.done).toEqual([0, 0, 1, 1, 3, 2, 3, 2, 2, 2, 2, 4, 4, 4]);
  });

  it('burnup from a day inside the history folds everything before it into the first day', async () => {
    const c = await chart({ name: 'Alpha', kind: 'burnup', projectIds: [alpha.id] });
    const res = await data(c.id, `?from=${d(4)}&to=${d(9)}`);
    expect(res.days).toEqual([4, 5, 6, 7, 8, 9].map(d));
    const want = expected(events, tasks, res.days, { projects: [alpha.id], over });
    expect(res.series.map((s) => s.values)).toEqual([want.total, want.done]);
  });

  it('throughput: each time a counting task became over, on its day', async () => {
    const c = await chart({ name: 'Pace', kind: 'throughput', projectIds: [alpha.id, beta.id], propertyId: statusA.id });
    expect(c.propertyId).toBeNull();
    const res = await data(c.id, `?from=${d(-1)}&to=${d(10)}`);
    const want = expected(events, tasks, res.days, { projects: [alpha.id, beta.id], over });
    expect(res.series).toEqual([{ key: 'done', name: 'Done', color: null, values: want.throughput }]);
    expect(want.throughput).toEqual([0, 1, 0, 2, 0, 1, 0, 2, 0, 1, 1, 1]);
  });

  it('flow: one series per option in option order, then none, for the property\'s project only', async () => {
    const c = await chart({ name: 'Flow', kind: 'flow', projectIds: [alpha.id, beta.id], propertyId: statusA.id });
    const res = await data(c.id, `?from=${d(-1)}&to=${d(10)}`);
    const keys = statusA.options.map((o) => o.id);
    const want = expected(events, tasks, res.days, { projects: [alpha.id, beta.id], over, flowOptions: keys, flowProject: alpha.id });
    expect(res.series).toEqual([
      ...statusA.options.map((o, i) => ({ key: o.id, name: o.name, color: o.color, values: want.flow[i] })),
      { key: 'none', name: 'No Status', color: null, values: want.flow[keys.length] },
    ]);
  });

  it('answers { chart, from, to, days, series }, by default the 30 days up to today (UTC)', async () => {
    const c = await chart({ name: 'Default', kind: 'burnup', projectIds: [alpha.id] });
    const res = await data(c.id);
    expect(Object.keys(res)).toEqual(['chart', 'from', 'to', 'days', 'series']);
    expect(res.chart).toEqual(c);
    expect(res.to).toBe(new Date(clock.t).toISOString().slice(0, 10));
    expect(res.days).toHaveLength(30);
    expect([res.days[0], res.days[29]]).toEqual([res.from, res.to]);
    const want = expected(events, tasks, res.days, { projects: [alpha.id], over });
    expect(res.series.map((s) => s.values)).toEqual([want.total, want.done]);
  });

  it('drops a project the person left out of the data silently', async () => {
    const owner = await registerPerson(t, 'Olive');
    const gamma = await createProject(owner.client, 'Gamma', 'GA');
    await addMember(owner.client, gamma.id, pat);
    onDay(10);
    await createTask(owner.client, gamma.id, 'Elsewhere');
    const c = await chart({ name: 'Mixed', kind: 'burnup', projectIds: [alpha.id, gamma.id] });
    const before = await data(c.id, `?from=${d(10)}&to=${d(10)}`);
    expect(before.series[0].values).toEqual([expected(events, tasks, before.days, { projects: [alpha.id], over }).total[0] + 1]);
    await expectStatus(owner.client.delete(`/projects/${gamma.id}/members/${pat.user.id}`), 200);
    const after = await data(c.id, `?from=${d(10)}&to=${d(10)}`);
    expect(after.chart.projectIds).toEqual([alpha.id]);
    expect(after.series[0].values).toEqual(before.series[0].values.map((n: number) => n - 1));
    expect((await expectStatus(pat.client.get('/charts'), 200)).charts.find((x) => x.id === c.id)!.projectIds).toEqual([alpha.id]);
  });
});
