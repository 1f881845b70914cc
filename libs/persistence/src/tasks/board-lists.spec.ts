import { BoardLists, buildBoardLists, ListRelated } from './board-lists';
import { ListRow } from './tasks.table';

/**
 * A build that reuses the previous build's bytes must write exactly what a build from scratch
 * writes, whatever changed in between: row versions, order, deletions, new rows, blockers whose
 * done state flips, parts, counts, the project key. Random histories, compared byte for byte.
 */
describe('buildBoardLists reusing a previous build', () => {
  const STATUS = 'p-status';
  const doneWhen = { propertyId: STATUS, optionIds: ['done'] };
  const texts = ['plain', 'Quote " and \\ slash', 'Emoji 🚀 \u2028 sep', 'Ünïcödé ✓', '', 'line\nbreak', '"archivedAt":null,"values":{}'];

  // A small deterministic generator, so a failure can be replayed.
  function rng(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }

  interface State {
    rows: ListRow[];
    related: ListRelated;
    key: string;
  }

  function makeState(rand: () => number, n: number): State {
    const rows: ListRow[] = [];
    for (let i = 0; i < n; i++) rows.push(newRow(rand, i + 1));
    return { rows, related: randomRelated(rand, rows), key: 'PRJ' };
  }

  let version = 1000;
  function newRow(rand: () => number, number: number): ListRow {
    const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];
    const values: Record<string, unknown> = {};
    if (rand() < 0.8) values[STATUS] = pick(['todo', 'done', 'doing']);
    if (rand() < 0.3) values['p-tags'] = ['done', 'x'].slice(0, 1 + Math.floor(rand() * 2));
    if (rand() < 0.2) values['p-odd'] = { values: [1, 'two', null, { 'k"': 'v\\n' }] };
    const frac = pick(['', '.5', '.123456', '.999999']);
    return {
      id: `00000000-0000-4000-8000-${String(number).padStart(12, '0')}`,
      x: String(version++),
      number,
      title: pick(texts) + number,
      description: pick(texts),
      position: `c${String(Math.floor(rand() * 1000)).padStart(3, '0')}`,
      created: `2026-01-02 03:04:05${frac}`,
      updated: `2026-01-02 03:04:06${frac}`,
      archived: rand() < 0.15 ? `2026-02-03 04:05:06${frac}` : null,
      values_text: JSON.stringify(values).replace(/":/g, '": '),
      parent_id: null,
    };
  }

  function randomRelated(rand: () => number, rows: ListRow[]): ListRelated {
    const ids = rows.map((r) => r.id);
    const pick = () => ids[Math.floor(rand() * ids.length)];
    const checklists = ids.filter(() => rand() < 0.2).map((task_id) => ({ task_id, total: 3, done: Math.floor(rand() * 4) }));
    const comments = ids.filter(() => rand() < 0.2).map((task_id) => ({ task_id, n: 1 + Math.floor(rand() * 3) }));
    const links: { task_id: string; blocker_id: string }[] = [];
    const linked = new Set<string>();
    for (let i = 0; i < rows.length / 3; i++) {
      const [a, b] = [pick(), pick()];
      if (a !== b && !linked.has(`${a} ${b}`)) {
        linked.add(`${a} ${b}`);
        links.push({ task_id: a, blocker_id: b });
      }
    }
    return { checklists, comments, links };
  }

  const sorted = (rows: ListRow[]) => [...rows].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1));
  const fromScratch = (s: State) => {
    const order = sorted(s.rows);
    return buildBoardLists(order, order, null, s.related, s.key, doneWhen);
  };
  // What TaskQuery does with a previous build: only rows of another version are read in full.
  const reusing = (s: State, previous: BoardLists) => {
    if (previous.projectKey !== s.key) return fromScratch(s);
    const order = sorted(s.rows);
    const changed = order.filter((r) => previous.pieces.get(r.id)?.x !== r.x);
    return buildBoardLists(
      order.map((r) => ({ id: r.id, x: r.x })),
      changed,
      previous,
      s.related,
      s.key,
      doneWhen,
    );
  };

  function mutate(rand: () => number, s: State): State {
    const rows = s.rows.map((r) => ({ ...r }));
    let related = s.related;
    let key = s.key;
    const touch = (r: ListRow) => (r.x = String(version++));
    const any = () => rows[Math.floor(rand() * rows.length)];
    const kind = Math.floor(rand() * 10);
    for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) {
      if (rows.length === 0) break;
      const r = any();
      switch (kind) {
        case 0: // a value flips: blockers and parents show it without their own version changing
          r.values_text = JSON.stringify({ [STATUS]: rand() < 0.5 ? 'done' : 'todo' }).replace(/":/g, '": ');
          touch(r);
          break;
        case 1: // a move
          r.position = `c${String(Math.floor(rand() * 1000)).padStart(3, '0')}`;
          touch(r);
          break;
        case 2: // archive or unarchive
          r.archived = r.archived ? null : '2026-05-06 07:08:09.1';
          touch(r);
          break;
        case 3: // delete
          rows.splice(rows.indexOf(r), 1);
          break;
        case 4: // a new task
          rows.push(newRow(rand, Math.max(0, ...rows.map((x) => x.number)) + 1));
          break;
        case 5: // a part of another task, or no longer
          r.parent_id = rand() < 0.7 ? any().id : null;
          if (r.parent_id === r.id) r.parent_id = null;
          touch(r);
          break;
        case 6: // counts and links change, rows do not
          related = randomRelated(rand, rows);
          break;
        case 7: // a title edit
          r.title = texts[Math.floor(rand() * texts.length)] + '!';
          touch(r);
          break;
        case 8: // the project key
          key = key === 'PRJ' ? 'NEW' : 'PRJ';
          break;
        default: // nothing at all
          break;
      }
    }
    return { rows, related, key };
  }

  it('writes the same bytes as a build from scratch over random histories', async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rand = rng(seed);
      let state = makeState(rand, 5 + Math.floor(rand() * 40));
      let lists = await fromScratch(state);
      for (let step = 0; step < 25; step++) {
        state = mutate(rand, state);
        const expected = await fromScratch(state);
        lists = await reusing(state, lists);
        const where = `seed ${seed}, step ${step}`;
        // 1,500 steps: `expect` is called only to report a difference (each call costs a stack and every matcher).
        for (const part of ['tasksJson', 'archivedJson', 'firstThreeJson'] as const) {
          if (!lists[part].equals(expected[part])) expect([where, part, lists[part].toString()]).toEqual([where, part, expected[part].toString()]);
        }
        if (lists.taskCount !== expected.taskCount) expect([where, lists.taskCount]).toEqual([where, expected.taskCount]);
      }
    }
  });

  it('writes valid JSON whose tasks carry their counts, blockers and parts', async () => {
    const rand = rng(7);
    const state = makeState(rand, 30);
    const lists = await fromScratch(state);
    const tasks = JSON.parse(lists.tasksJson.toString());
    const archived = JSON.parse(lists.archivedJson.toString());
    expect(tasks.length + archived.length).toBe(30);
    expect(tasks.length).toBe(lists.taskCount);
    expect(JSON.parse(lists.firstThreeJson.toString())).toEqual(tasks.slice(0, 3));
    for (const t of tasks) expect(Object.keys(t)).toEqual(['id', 'number', 'key', 'title', 'description', 'position', 'createdAt', 'updatedAt', 'archivedAt', 'values', 'checklistTotal', 'checklistDone', 'commentCount', 'blockedBy', 'parts']);
  });

  it('leaves out a task deleted since the order was read', async () => {
    const rand = rng(3);
    const state = makeState(rand, 20);
    const first = await fromScratch(state);
    const gone = state.rows.find((r) => r.archived === null)!;
    const next = { ...state, rows: state.rows.filter((r) => r !== gone) };
    const lists = await reusing(next, first);
    expect(lists.pieces.has(gone.id)).toBe(false);
    expect(lists.tasksJson.toString()).toBe((await fromScratch(next)).tasksJson.toString());
    // A task in the order but neither reusable nor fresh (deleted in between) is left out.
    const order = sorted(next.rows).map((r) => ({ id: r.id, x: r.x }));
    const stray = await buildBoardLists([...order, { id: gone.id, x: 'other' }], [], lists, next.related, next.key, doneWhen);
    expect(stray.tasksJson.toString()).toBe(lists.tasksJson.toString());
  });

  it('builds a large board in turns of the event loop, to the same bytes', async () => {
    const rand = rng(11);
    // 20,000 tasks (well past one turn's budget anywhere) with long descriptions: the written text passes the writer's flush size many times.
    const state = makeState(rand, 20_000);
    for (const r of state.rows) r.description = `${r.description} ${'long text '.repeat(8)}`;
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const lists = await fromScratch(state);
    clearInterval(counting);
    expect(turns).toBeGreaterThan(0);
    const tasks = JSON.parse(lists.tasksJson.toString());
    const archived = JSON.parse(lists.archivedJson.toString());
    expect(tasks.length + archived.length).toBe(20_000);
    // And a reuse of it writes the same bytes as a fresh build after a change.
    const next = mutate(rand, state);
    expect((await reusing(next, lists)).tasksJson.toString()).toBe((await fromScratch(next)).tasksJson.toString());
  });
});
