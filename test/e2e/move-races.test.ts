import fc from 'fast-check';
import { createTask, expectStatus } from '../support/fixtures';
import { aProject, optionId, Prop } from '../support/builders';
import { Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

/**
 * Moves hold only their gap (TaskMoveRepository), so moves elsewhere on the board run at once.
 * Property: whatever batch of moves (after, before, at the end, some with a value) and creates
 * (at the end, after a task) runs at once, every answer is 200, no task is lost or doubled, ranks
 * stay distinct in board order, each task sits at the rank its answer named, and the board is the
 * one some serial run of the batch would give (checked against every order of it).
 */
type Op =
  | { kind: 'move'; task: number; side: 'after' | 'before' | 'end'; anchor: number; withValue: boolean }
  | { kind: 'create'; anchor: number | null };

/** A batch's writes on a list of ids, one after another, as the contract says each places its task. */
function serially(before: readonly string[], ops: readonly Op[], ids: readonly string[], created: readonly string[]): string[] {
  const list = [...before];
  ops.forEach((op, i) => {
    const mover = op.kind === 'move' ? ids[op.task] : created[i];
    const anchor = op.kind === 'move' ? (op.side === 'end' ? null : ids[op.anchor]) : op.anchor === null ? null : ids[op.anchor];
    if (anchor === mover) return;
    const at = list.indexOf(mover);
    if (at >= 0) list.splice(at, 1);
    if (anchor === null) list.push(mover);
    else list.splice(list.indexOf(anchor) + (op.kind === 'move' && op.side === 'before' ? 0 : 1), 0, mover);
  });
  return list;
}

function* orders(n: number): Generator<number[]> {
  if (n === 0) return yield [];
  for (const rest of orders(n - 1)) for (let at = 0; at <= rest.length; at++) yield [...rest.slice(0, at), n - 1, ...rest.slice(at)];
}

describe('concurrent moves (property)', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let status: Prop;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Mo');
    const built = await aProject(owner.client, { name: 'Shuffle', key: 'SHUF' });
    projectId = built.project.id;
    status = built.status;
    for (let i = 0; i < 8; i++) await createTask(owner.client, projectId, `T${i}`);
  });
  afterAll(() => t?.close());

  const board = async (): Promise<{ id: string; position: string }[]> => (await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200)).tasks;

  const moveOp = fc.record({
    kind: fc.constant('move' as const),
    task: fc.nat(),
    side: fc.constantFrom('after' as const, 'before' as const, 'end' as const),
    anchor: fc.nat(),
    withValue: fc.boolean(),
  });
  const createOp = fc.record({ kind: fc.constant('create' as const), anchor: fc.option(fc.nat(), { nil: null }) });
  const batch = fc
    .tuple(fc.array(moveOp, { minLength: 1, maxLength: 5 }), fc.option(createOp, { nil: null }))
    .map(([moves, create]): Op[] => (create ? [...moves, create] : moves));

  it('keeps every task, each at its answer, ranks distinct, in an order a serial run gives', async () => {
    const options = status.options.map((o) => optionId(status, o.name));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(batch, async (drawn) => {
        const before = (await board()).map((x) => x.id);
        // Indexes into the board as it is now; a task moves once at most (two moves of one task at once may land in either order).
        const seen = new Set<number>();
        const ops = drawn
          .map((op) => (op.kind === 'move' ? { ...op, task: op.task % before.length, anchor: op.anchor % before.length } : { ...op, anchor: op.anchor === null ? null : op.anchor % before.length }))
          .filter((op) => op.kind === 'create' || (!seen.has(op.task) && seen.add(op.task)));
        round++;
        // Each write's answer: the task it placed and the rank it named.
        const answers = await Promise.all(
          ops.map(async (op): Promise<{ id: string; position: string }> => {
            if (op.kind === 'create') {
              const body = op.anchor === null ? { title: `N${round}` } : { title: `N${round}`, afterId: before[op.anchor] };
              const { task } = await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, body), 201);
              return { id: task.id, position: task.position };
            }
            const body: Record<string, unknown> = op.side === 'end' ? {} : { [op.side === 'after' ? 'afterId' : 'beforeId']: before[op.anchor] };
            if (op.withValue) body.values = { [status.id]: options[(op.task + round) % options.length] };
            const moved = await expectStatus(owner.client.post(`/tasks/${before[op.task]}/move`, body), 200);
            return { id: before[op.task], position: moved.position };
          }),
        );
        const created = answers.map((a, i) => (ops[i].kind === 'create' ? a.id : ''));

        const after = await board();
        const ids = after.map((x) => x.id);
        const positions = after.map((x) => x.position);
        // Ranks distinct and rising in board order.
        for (let i = 1; i < positions.length; i++) expect(positions[i - 1] < positions[i]).toBe(true);
        // No task lost, none doubled.
        expect([...ids].sort()).toEqual([...before, ...created.filter(Boolean)].sort());
        // Each task written sits at the rank its answer named.
        for (const { id, position } of answers) expect({ id, position: after.find((x) => x.id === id)?.position }).toEqual({ id, position });
        // The order is the one some serial run of the batch gives.
        for (const order of orders(ops.length)) {
          const serial = serially(before, order.map((k) => ops[k]), before, order.map((k) => created[k]));
          if (serial.every((id, i) => id === ids[i])) return;
        }
        throw new Error(`no serial order of ${JSON.stringify(ops)} turns ${JSON.stringify(before)} into ${JSON.stringify(ids)}`);
      }),
      { numRuns: 100, endOnFailure: true },
    );
  }, 240_000);
});

/**
 * A move holds its task and its gap's two neighbours in id order; a restore holds the project
 * lock and its task, then lets go of each part that gained parts of its own while it was away
 * (an update of that part's row). Deleted tasks keep their ranks, so a deleted task is a move's
 * neighbour too: a part moving beside its parent while the parent comes back can hold the part
 * and wait for the parent while the restore holds the parent and waits for the part, and
 * PostgreSQL then ends one of the two. Whichever it ends runs again (the unit of work, proven on
 * its own in test/integration/deadlock-retry.test.ts): no answer is a 500, nothing is lost.
 */
describe('moves beside restores', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Dee');
    projectId = (await aProject(owner.client, { name: 'Crossing', key: 'CROSS' })).project.id;
  });
  afterAll(() => t?.close());

  it('every write answers 200, and the board keeps each task once with distinct ranks', async () => {
    const all: string[] = [];
    const task = async (title: string) => {
      const id = (await createTask(owner.client, projectId, title)).id as string;
      all.push(id);
      return id;
    };
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      const before = await task(`B${round}`);
      const parent = await task(`P${round}`);
      const part = await task(`C${round}`);
      const grandpart = await task(`G${round}`);
      await expectStatus(owner.client.put(`/tasks/${part}/parent`, { parentId: parent }), 200);
      await expectStatus(owner.client.delete(`/tasks/${parent}`), 200);
      // While the parent is away its part gains a part: the restore lets go of that part.
      await expectStatus(owner.client.put(`/tasks/${grandpart}/parent`, { parentId: part }), 200);
      const writes: Promise<{ status: number }>[] = [owner.client.post(`/tasks/${parent}/restore`, {})];
      // B P C G: the part goes right after B, then right before G, and back: both gaps hold the parent.
      for (let k = 0; k < 6; k++) writes.push(owner.client.post(`/tasks/${part}/move`, k % 2 === 0 ? { afterId: before } : { beforeId: grandpart }));
      statuses.push(...(await Promise.all(writes)).map((a) => a.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const board = (await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200)).tasks as { id: string; position: string }[];
    expect(board.map((x) => x.id).sort()).toEqual([...all].sort());
    const positions = board.map((x) => x.position);
    for (let i = 1; i < positions.length; i++) expect(positions[i - 1] < positions[i]).toBe(true);
  }, 120_000);
});
