import { aBoard, aTeam, optionId, Team } from '../support/builders';
import { expectStatus } from '../support/fixtures';
import { addMember, createProject, startTestApp, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * POST /api/projects/:projectId/import with a project export (extensions.md § 3.4): a rich project
 * exported, imported into a new project, and read back equal except ids, name, key and the
 * member who is not in the new project (the agent).
 */
describe('importing a project export', () => {
  let t: TestApp;
  let team: Team;
  let doc: Json;
  let target: string;
  let imported: { status: number; body: unknown };
  /** Old id → new id, filled from what both projects read by name and number. */
  const ids = new Map<string, string>();

  const done = async <T = unknown>(res: Promise<{ status: number; body: unknown }>): Promise<T> => {
    const r = await res;
    if (r.status >= 300) throw new Error(`set-up refused: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  /** Old ids become new ones, other ids (and the keys) a placeholder: what must match is everything else. */
  const translate = (value: unknown, key: string): string =>
    JSON.stringify(value)
      .replace(UUID, (id) => ids.get(id) ?? id)
      .replace(UUID, (id) => ([...ids.values()].includes(id) ? id : '<id>'))
      .replaceAll(`${key}-`, 'KEY-')
      // Feed lines keep what they said when written, the old key too.
      .replaceAll('OLD-', 'KEY-');

  beforeAll(async () => {
    t = await startTestApp();
    team = await aTeam(t, {
      key: 'OLD',
      properties: {
        Size: ['select', ['S', 'L']], Tags: ['multi_select', ['Red', 'Green']], Sprint: ['iteration', ['S1', 'S2']], Owner: ['person'],
        Notes: ['text'], Points: ['number'], Due: ['date'], Ok: ['checkbox'], Refs: ['link'],
      },
    });
    const { owner, member, agent, project, props, status } = team;
    const pid = project.id;
    const [a, b, c, d, e] = await aBoard(owner.client, pid, 5, {
      values: (i) => ({
        [props.Size.id]: optionId(props.Size, i % 2 ? 'L' : 'S'), [props.Tags.id]: [optionId(props.Tags, 'Red')], [props.Sprint.id]: optionId(props.Sprint, 'S2'),
        [props.Owner.id]: i === 4 ? agent.agent.id : member.user.id, [props.Notes.id]: `note ${i}`, [props.Points.id]: i + 0.5,
        [props.Due.id]: `2026-12-0${i + 1}`, [props.Ok.id]: i % 2 === 0, [props.Refs.id]: ['https://docs.example.com/' + i],
      }),
    });
    await expectStatus(owner.client.put(`/tasks/${b.id}/parent`, { parentId: a.id }), 200);
    await done(owner.client.post(`/tasks/${a.id}/blockers`, { blockerId: c.id }));
    await done(member.client.post(`/tasks/${a.id}/checklist`, { text: 'Write the tests' }));
    await done(member.client.post(`/tasks/${a.id}/comments`, { body: 'Looks good' }));
    await done(agent.client.post(`/tasks/${a.id}/comments`, { body: 'On it' }));
    await expectStatus(owner.client.post(`/tasks/${c.id}/archive`), 200);
    await expectStatus(owner.client.delete(`/tasks/${d.id}`), 200);
    const board = await done<{ views: { id: string }[] }>(owner.client.get(`/projects/${pid}/board`));
    await expectStatus(owner.client.patch(`/views/${board.views[0].id}`, { filters: { rules: [{ propertyId: status.id, op: 'is', values: [optionId(status, 'To do')] }] } }), 200);
    await expectStatus(owner.client.patch(`/projects/${pid}/card-view`, { rows: { [props.Points.id]: { place: 'headerR', mode: 'text' } } }), 200);
    const run = await done<{ run: { id: string } }>(agent.client.post(`/tasks/${a.id}/run`, { goal: 'Fix it', steps: ['read', 'fix'] }));
    await expectStatus(agent.client.patch(`/runs/${run.run.id}`, {
      log: 'reading', links: [{ url: 'https://git.example.com/pr/1', title: 'The fix', kind: 'pr' }],
      usage: { inputTokens: 1000, outputTokens: 200, costMicros: 5000, model: 'big-model' },
      status: 'waiting', question: { text: 'Ship it?', options: ['Yes', 'No'] },
    }), 200);
    await expectStatus(owner.client.post(`/runs/${run.run.id}/answer`, { answer: ['Yes'] }), 200);
    await expectStatus(agent.client.patch(`/runs/${run.run.id}`, { status: 'done', log: 'shipped' }), 200);
    // An open run on e: it comes back closed as lost.
    await done(agent.client.post(`/tasks/${e.id}/run`, { goal: 'Look', steps: ['look'] }));
    doc = await done<Json>(owner.client.get(`/projects/${pid}/export`));

    // The new project: Milo is in it (matched by email), the agent is not.
    const fresh = await createProject(owner.client, 'Fresh', 'NEW');
    target = fresh.id;
    await addMember(owner.client, target, member);
    imported = await owner.client.post(`/projects/${target}/import`, doc);
    // The map: properties and views by name, options by name within them, tasks by number, people by person.
    const oldBoard = await done<Json>(owner.client.get(`/projects/${pid}/board`));
    const newBoard = await done<Json>(owner.client.get(`/projects/${target}/board`));
    const props2 = (bd: Json) => bd.properties as { id: string; name: string; options?: { id: string; name: string }[] }[];
    for (const p of props2(oldBoard)) {
      const q = props2(newBoard).find((x) => x.name === p.name)!;
      ids.set(p.id, q.id);
      for (const o of p.options ?? []) ids.set(o.id, q.options!.find((x) => x.name === o.name)!.id);
    }
    for (const v of oldBoard.views as { id: string; name: string }[]) ids.set(v.id, (newBoard.views as { id: string; name: string }[]).find((x) => x.name === v.name)!.id);
    const oldTasks = (doc.tasks as { id: string; number: number }[]);
    const newDoc = await done<Json>(owner.client.get(`/projects/${target}/export`));
    for (const x of oldTasks) ids.set(x.id, (newDoc.tasks as { id: string; number: number }[]).find((y) => y.number === x.number)!.id);
    for (const [i, r] of (doc.runs as { id: string }[]).entries()) ids.set(r.id, (newDoc.runs as { id: string }[])[i].id);
    ids.set(owner.user.id, owner.user.id);
    ids.set(member.user.id, member.user.id);
  });
  afterAll(() => t?.close());

  it('answers how many tasks came in', () => {
    expect(imported).toMatchObject({ status: 200, body: { imported: 5, skipped: [] } });
  });

  it('reads the same board: properties, options, views with filters, card view and tasks with values', async () => {
    const oldBoard = await done<Json>(team.owner.client.get(`/projects/${team.project.id}/board`));
    const newBoard = await done<Json>(team.owner.client.get(`/projects/${target}/board`));
    for (const part of ['properties', 'views', 'cardView']) expect(translate(newBoard[part], 'NEW')).toEqual(translate(oldBoard[part], 'OLD'));
    // The agent is not in the new project: its person value is dropped, and its open run closed as lost.
    const tasks = (board: Json, key: string) =>
      JSON.parse(translate(board.tasks, key)).map((x: Json) => ({ ...x, runs: undefined, run: undefined }));
    const [oldTasks, newTasks] = [tasks(oldBoard, 'OLD'), tasks(newBoard, 'NEW')];
    const owner = ids.get(team.props.Owner.id)!;
    const robo = oldTasks.find((x: { values: Json }) => x.values[owner] === '<id>');
    expect(robo).toBeDefined();
    delete robo.values[owner];
    expect(newTasks).toEqual(oldTasks);
  });

  it('reads every task whole as before: values, parts, blockers, checklist, comments, archived and deleted', async () => {
    for (const x of doc.tasks as { id: string; number: number; deletedAt: string | null }[]) {
      if (x.deletedAt) continue;
      const before = await done<{ task: Json }>(team.owner.client.get(`/tasks/${x.id}`));
      const after = await done<{ task: Json }>(team.owner.client.get(`/tasks/${ids.get(x.id)}`));
      const strip = (task: Json, key: string) => {
        const out = JSON.parse(translate(task, key));
        for (const k of ['run', 'runs', 'pastRuns', 'comments', 'values', 'project']) delete out[k];
        // The import's own lines aside, the feed reads the same; the agent is not in the new project, so its lines have no actor.
        out.activity = (out.activity as Json[]).filter((l) => l.kind !== 'import').map((l) => ({ ...l, actor: (l.actor as Json | null)?.name === 'Robo' ? null : l.actor }));
        return out;
      };
      expect(strip(after.task, 'NEW')).toEqual(strip(before.task, 'OLD'));
    }
    const a = (doc.tasks as { id: string }[])[0];
    const after = await done<{ task: { comments: { body: string; author: { name: string } }[] } }>(team.owner.client.get(`/tasks/${ids.get(a.id)}`));
    expect(after.task.comments.map((c) => [c.author.name, c.body])).toEqual([['Milo', 'Looks good'], ['Olive', '**Robo** wrote:\n\n> On it']]);
  });

  it('keeps deleted tasks deleted, with their time in the bin', async () => {
    const d = (doc.tasks as { id: string; deletedAt: string | null }[]).find((x) => x.deletedAt)!;
    const row = await t.sql.query('SELECT deleted_at FROM tasks WHERE id = $1', [ids.get(d.id)]);
    expect((row.rows[0].deleted_at as Date).toISOString()).toBe(d.deletedAt);
  });

  it('keeps closed runs as past runs, and closes open ones as lost, with steps, log, links, usage and question', async () => {
    const newDoc = await done<Json>(team.owner.client.get(`/projects/${target}/export`));
    const runs = newDoc.runs as Json[];
    expect(runs.map((r) => r.status)).toEqual(['done', 'lost']);
    const [old] = doc.runs as Json[];
    for (const k of ['goal', 'steps', 'log', 'links', 'inputTokens', 'outputTokens', 'costMicros', 'model', 'startedAt', 'endedAt']) expect(runs[0][k]).toEqual(old[k]);
    expect(translate(runs[0].question, 'NEW')).toEqual(translate(old.question, 'OLD'));
    expect(runs[1].endedAt).not.toBeNull();
  });

  it("keeps the export's feed lines, and writes one import line per task with its id in the export", async () => {
    const feed = async (pid: string) => (await done<{ activity: Json[] }>(team.owner.client.get(`/projects/${pid}/activity?limit=500`))).activity;
    const [before, after] = [await feed(team.project.id), await feed(target)];
    const imports = after.filter((l) => l.kind === 'import');
    expect(imports.map((l) => (l.data as Json).sourceId).sort()).toEqual((doc.tasks as { id: string }[]).map((x) => x.id).sort());
    const shape = (lines: Json[], key: string) => lines.filter((l) => l.kind !== 'import').map((l) => JSON.parse(translate({ ...l, id: undefined }, key)));
    expect(shape(after, 'NEW').map((l: Json) => l.kind)).toEqual(shape(before, 'OLD').map((l: Json) => l.kind));
  });

  it('keeps releases and what shipped with them: the changelog reads the same', async () => {
    const c = team.owner.client;
    const from = await createProject(c, 'Shipping', 'SHP');
    await expectStatus(c.patch(`/projects/${from.id}`, { releases: true }), 200);
    const bd = await done<{ properties: { id: string; name: string; options: { id: string; name: string }[] }[] }>(c.get(`/projects/${from.id}/board`));
    const release = bd.properties.find((p) => p.name === 'Release')!;
    const status = bd.properties.find((p) => p.name === 'Status')!;
    const r1 = (await done<{ option: { id: string } }>(c.post(`/properties/${release.id}/options`, { name: '1.0', targetOn: '2026-06-30', note: 'First' }))).option;
    await done(c.post(`/projects/${from.id}/tasks`, { title: 'Shipped', values: { [release.id]: r1.id, [status.id]: status.options.find((o) => o.name === 'Done')!.id } }));
    await done(c.post(`/properties/${release.id}/options`, { name: '1.1', targetOn: '2026-07-30' }));
    await expectStatus(c.post(`/options/${r1.id}/ship`, { rest: 'next' }), 200);
    const exported = await done<Json>(c.get(`/projects/${from.id}/export`));
    const to = await createProject(c, 'Shipped again', 'SHQ');
    await expectStatus(c.post(`/projects/${to.id}/import`, exported), 200);
    const log = async (pid: string) => (await done<{ changelog: Json[] }>(c.get(`/projects/${pid}/changelog`))).changelog;
    const scrub = (x: unknown, key: string) => JSON.stringify(x).replace(UUID, '<id>').replaceAll(`${key}-`, 'KEY-');
    const before = await log(from.id);
    expect(before).toHaveLength(1);
    expect(scrub(await log(to.id), 'SHQ')).toEqual(scrub(before, 'SHP'));
  });

  it('refuses a project that holds a task, even in the bin, and writes nothing', async () => {
    expect([(await team.owner.client.post(`/projects/${target}/import`, doc)).status]).toEqual([409]);
    const other = await createProject(team.owner.client, 'Binned', 'BIN');
    const [x] = await aBoard(team.owner.client, other.id, 1);
    await expectStatus(team.owner.client.delete(`/tasks/${x.id}`), 200);
    const res = await team.owner.client.post(`/projects/${other.id}/import`, doc);
    expect([res.status, res.body]).toEqual([409, { error: 'Import an export into a project without tasks.' }]);
    const preview = await team.owner.client.post(`/projects/${other.id}/import/preview`, doc);
    expect(preview.status).toBe(409);
  });

  it('previews an export as an export, and a Trello export as before', async () => {
    const empty = await createProject(team.owner.client, 'Empty', 'EMP');
    const res = await team.owner.client.post(`/projects/${empty.id}/import/preview`, doc);
    expect([res.status, res.body]).toEqual([200, { preview: { kind: 'export', tasks: 3, archived: 1, deleted: 1, lists: 0, closedLists: 0, labels: 0, checklistItems: 1, comments: 2, skipped: [], properties: 10, views: 1, runs: 2 } }]);
    const trello = await team.owner.client.post(`/projects/${empty.id}/import/preview`, { lists: [], labels: [], cards: [], checklists: [], actions: [] });
    expect(trello.body).toMatchObject({ preview: { kind: 'trello', tasks: 0 } });
    expect((await team.owner.client.get(`/projects/${empty.id}/board`)).body).toMatchObject({ tasks: [] });
  });

  it('refuses a bad export with a clear 400 and writes nothing', async () => {
    const empty = await createProject(team.owner.client, 'Empty2', 'EMQ');
    const post = (body: unknown) => team.owner.client.post(`/projects/${empty.id}/import`, body);
    const refusals: [unknown, string][] = [
      [{ ...doc, version: 2 }, 'That task board export is of a version this service cannot read.'],
      [{ ...doc, tasks: {} }, 'That is not a task board export: tasks must be a list.'],
      [{ ...doc, tasks: [1] }, 'That is not a task board export: entry number 1 of tasks is not an object with an id.'],
      [{ ...doc, tasks: [...(doc.tasks as Json[]), (doc.tasks as Json[])[0]] }, `Task ${(doc.tasks as Json[])[0].id} is in the export twice.`],
      [{ ...doc, tasks: [{ ...(doc.tasks as Json[])[1], parentId: 'nope' }] }, `Task ${(doc.tasks as Json[])[1].id} of the export: parentId names nope, which the export does not hold.`],
      [{ ...doc, tasks: [{ ...(doc.tasks as Json[])[2], createdAt: 'yesterday' }] }, `Task ${(doc.tasks as Json[])[2].id} of the export: createdAt must be a time (ISO 8601).`],
      [{ ...doc, runs: [{ ...(doc.runs as Json[])[0], costMicros: '1e309' }] }, `Run ${(doc.runs as Json[])[0].id} of the export: costMicros must be a whole number of at most 16 digits, as text.`],
      [{ ...doc, tasks: [{ ...(doc.tasks as Json[])[2], number: 2 ** 31 }] }, `Task ${(doc.tasks as Json[])[2].id} of the export: number must be a whole number from 1 to 2147483647.`],
    ];
    for (const [body, error] of refusals) {
      const res = await post(body);
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
    const count = await t.sql.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1', [empty.id]);
    expect(count.rows[0].n).toBe(0);
  });
});
