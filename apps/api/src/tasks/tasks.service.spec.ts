import { DAY, rankBetween } from '@board/kernel';
import { IDS, taskWorld, TaskWorld } from '../../../../test/support/in-memory/task-world';
import { TasksService } from './tasks.service';

/** The task use cases through their ports: what each declares to the unit of work, and what it refuses. */
function service(w: TaskWorld): TasksService {
  return new TasksService(w.repos.tasks, w.reads.tasks, w.reads.defs, w.reads.facts, w.uow, w.clock, w.reads.names, w.reads.runs, w.repos.values, w.repos.creates, w.repos.moves);
}

const refusal = (code: string) => expect.objectContaining({ code });

describe('TasksService', () => {
  let w: TaskWorld;
  let tasks: TasksService;
  const create = (title: string, values: unknown = undefined) => tasks.create(w.caller, { title, description: '', placement: 'end', values });

  beforeEach(() => {
    w = taskWorld();
    tasks = service(w);
  });

  describe('create', () => {
    it('at the end: one statement with its created line (selects, people assigned) and the board notice', async () => {
      const task = await create('First', { [IDS.status]: IDS.doing, [IDS.who]: IDS.ann });
      expect(task).toMatchObject({ number: 1, key: 'WEB-1', title: 'First', values: { [IDS.status]: IDS.doing, [IDS.who]: IDS.ann } });
      expect(w.uow.writes.map((x) => x.form)).toEqual(['statement']);
      expect(w.uow.lines).toEqual([
        {
          projectId: IDS.project, taskId: task.id, actorId: IDS.owner, kind: 'created', data: { selects: { [IDS.status]: IDS.doing } },
          assigned: [{ propertyId: IDS.who, propertyName: 'Who', userIds: [IDS.ann] }],
        },
      ]);
      expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'board', taskId: null, clientId: 'tab-1' }]);
    });

    it('after another task: under the project lock, the same events', async () => {
      const first = await create('First');
      w.uow.clear();
      const second = await tasks.create(w.caller, { title: 'Second', description: 'd', placement: { afterId: first.id }, values: undefined });
      expect(second.number).toBe(2);
      expect(second.position > first.position).toBe(true);
      expect(w.uow.writes).toEqual([expect.objectContaining({ form: 'write', options: { lockProject: IDS.project }, landed: true })]);
      expect(w.uow.lines.map((l) => [l.kind, l.taskId, l.data, l.assigned])).toEqual([['created', second.id, { selects: {} }, undefined]]);
      expect(w.uow.notices).toHaveLength(1);
    });

    it('reads again when the properties changed between its read and its statement', async () => {
      const load = w.repos.creates.load.bind(w.repos.creates);
      let reads = 0;
      w.repos.creates.load = async (projectId) => {
        const context = await load(projectId);
        if (reads++ === 0) w.project.version++;
        return context;
      };
      const task = await create('Raced');
      expect(reads).toBe(2);
      expect(task.number).toBe(1);
      // The stale statement landed nothing, so it told nothing.
      expect(w.uow.writes.map((x) => x.landed)).toEqual([false, true]);
      expect(w.uow.lines).toHaveLength(1);
    });

    it('refuses values that are not an object, or name another project’s property, and tells nothing', async () => {
      await expect(create('Bad', [1])).rejects.toEqual(refusal('task.values_not_object'));
      await expect(create('Bad', { [IDS.todo]: 'x' })).rejects.toEqual(refusal('property.not_in_project'));
      await expect(create('Bad', { [IDS.who]: IDS.todo })).rejects.toEqual(refusal('value.not_member'));
      expect(w.uow.events).toEqual([]);
    });
  });

  describe('putValue', () => {
    it('one select: a value line with the names and the chart changes, and the board notice for the task', async () => {
      const task = await create('T');
      w.uow.clear();
      const answer = await tasks.putValue(w.caller, task.id, IDS.status, { value: IDS.todo });
      expect(answer).toEqual({ value: IDS.todo, dropped: [] });
      expect(w.uow.writes.map((x) => x.form)).toEqual(['statement']);
      expect(w.uow.lines).toEqual([
        { projectId: IDS.project, taskId: task.id, actorId: IDS.owner, kind: 'value', data: { property: 'Status', value: 'Todo', changes: { [IDS.status]: [null, IDS.todo] } } },
      ]);
      expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'board', taskId: task.id, clientId: 'tab-1' }]);
      expect(w.store.rows.get(task.id)?.values).toEqual({ [IDS.status]: IDS.todo });
    });

    it('a person: the line names them and carries whom the write newly assigned', async () => {
      const task = await create('T', { [IDS.who]: IDS.owner });
      w.uow.clear();
      await tasks.putValue(w.caller, task.id, IDS.who, { value: IDS.ann });
      expect(w.uow.lines).toEqual([
        expect.objectContaining({ kind: 'value', data: { property: 'Who', value: 'Ann' }, assigned: [{ propertyId: IDS.who, propertyName: 'Who', userIds: [IDS.ann] }] }),
      ]);
      w.uow.clear();
      // Clearing assigns nobody.
      await tasks.putValue(w.caller, task.id, IDS.who, { value: null });
      expect(w.uow.lines).toEqual([expect.objectContaining({ data: { property: 'Who', value: null } })]);
      expect(w.uow.lines[0].assigned).toBeUndefined();
    });

    it('the value it holds already: no write, nothing told', async () => {
      const task = await create('T', { [IDS.size]: 3 });
      w.uow.clear();
      expect(await tasks.putValue(w.caller, task.id, IDS.size, { value: 3 })).toEqual({ value: 3, dropped: [] });
      expect(w.uow.writes).toEqual([]);
    });

    it('after three lost compare-and-sets it takes the row lock, and tells once', async () => {
      const task = await create('T');
      w.uow.clear();
      const load = w.repos.values.load.bind(w.repos.values);
      let reads = 0;
      w.repos.values.load = async (projectId, taskId) => {
        const context = await load(projectId, taskId);
        // Someone else writes between each read and its statement.
        const row = w.store.rows.get(task.id);
        if (row) row.values = { [IDS.size]: ++reads };
        return context;
      };
      await tasks.putValue(w.caller, task.id, IDS.status, { value: IDS.doing });
      expect(reads).toBe(3);
      expect(w.uow.writes.map((x) => [x.form, x.landed])).toEqual([['statement', false], ['statement', false], ['statement', false], ['write', true]]);
      expect(w.uow.lines.map((l) => l.data.property)).toEqual(['Status']);
      expect(w.store.rows.get(task.id)?.values).toEqual({ [IDS.size]: 3, [IDS.status]: IDS.doing });
    });

    it('refuses in the contract’s order: the property id, the property, the value, then the task', async () => {
      const task = await create('T');
      w.uow.clear();
      await expect(tasks.putValue(w.caller, task.id, 'nope', { value: 1 })).rejects.toEqual(refusal('id.invalid'));
      const missing = '50000000-0000-4000-8000-000000000009';
      await expect(tasks.putValue(w.caller, missing, missing, { value: 1 })).rejects.toEqual(refusal('property.not_in_project'));
      await expect(tasks.putValue(w.caller, missing, IDS.size, { value: 'many' })).rejects.toEqual(refusal('value.number'));
      await expect(tasks.putValue(w.caller, missing, IDS.size, { value: 2 })).rejects.toEqual(refusal('task.not_found'));
      expect(w.uow.events).toEqual([]);
    });
  });

  describe('edit', () => {
    it('tells a title line and a task notice; the same text again tells nothing', async () => {
      const task = await create('Old');
      w.uow.clear();
      await tasks.edit(w.caller, task.id, { title: 'New' });
      expect(w.uow.lines.map((l) => [l.kind, l.data])).toEqual([['title', {}]]);
      expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'task', taskId: task.id, clientId: 'tab-1' }]);
      w.uow.clear();
      await tasks.edit(w.caller, task.id, { title: 'New' });
      expect(w.uow.events).toEqual([]);
    });

    it('refuses a clash with the text someone else saved, and tells nothing', async () => {
      const task = await create('Old');
      await tasks.edit(w.caller, task.id, { title: 'Theirs' });
      w.uow.clear();
      await expect(tasks.edit(w.caller, task.id, { title: 'Mine', baseTitle: 'Old' })).rejects.toEqual(refusal('task.clash'));
      expect(w.uow.writes.map((x) => x.landed)).toEqual([false]);
    });
  });

  describe('archive, delete, restore', () => {
    it('each tells its line and the board notice; a repeat tells nothing', async () => {
      const task = await create('T');
      w.uow.clear();
      await tasks.setArchived(w.caller, task.id, true);
      await tasks.setArchived(w.caller, task.id, true);
      const goesAt = await tasks.remove(w.caller, task.id);
      expect(goesAt.getTime()).toBe(w.clock.now().getTime() + 30 * DAY);
      await tasks.restore(w.caller, task.id);
      await tasks.restore(w.caller, task.id);
      expect(w.uow.lines.map((l) => [l.kind, l.data])).toEqual([
        ['archive', { action: 'archived' }],
        ['deleted', { action: 'deleted' }],
        ['deleted', { action: 'restored' }],
      ]);
      expect(w.uow.notices.map((n) => n.scope)).toEqual(['board', 'board', 'board']);
      expect(w.uow.writes.filter((x) => x.options?.lockProject)).toHaveLength(3);
    });

    it('refuses a task that is not there', async () => {
      await expect(tasks.setArchived(w.caller, IDS.todo, true)).rejects.toEqual(refusal('task.not_found'));
      await expect(tasks.remove(w.caller, IDS.todo)).rejects.toEqual(refusal('task.not_found'));
    });
  });

  describe('move', () => {
    it('a bare move rings the board; a move with values tells their lines instead', async () => {
      const a = await create('A');
      const b = await create('B');
      w.uow.clear();
      const moved = await tasks.move(w.caller, b.id, { beforeId: a.id, afterId: null, values: undefined });
      expect(moved.position < a.position).toBe(true);
      expect(w.uow.lines).toEqual([]);
      expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'board', taskId: null, clientId: 'tab-1' }]);
      w.uow.clear();
      await tasks.move(w.caller, b.id, { beforeId: null, afterId: a.id, values: { [IDS.status]: IDS.doing, [IDS.who]: IDS.ann } });
      expect(w.uow.lines.map((l) => [l.kind, l.data.property, l.assigned])).toEqual([
        ['value', 'Status', undefined],
        ['value', 'Who', [{ propertyId: IDS.who, propertyName: 'Who', userIds: [IDS.ann] }]],
      ]);
      expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'board', taskId: b.id, clientId: 'tab-1' }]);
    });

    it('a bare move is one read and one statement, no transaction and no project lock; a move with values one transaction without the lock', async () => {
      const a = await create('A');
      const b = await create('B');
      w.uow.clear();
      await tasks.move(w.caller, a.id, { beforeId: null, afterId: b.id, values: {} });
      expect(w.uow.writes.map((x) => [x.form, x.options])).toEqual([['statement', undefined]]);
      w.uow.clear();
      await tasks.move(w.caller, a.id, { beforeId: b.id, afterId: null, values: { [IDS.status]: IDS.doing } });
      expect(w.uow.writes.map((x) => [x.form, x.options])).toEqual([['write', undefined]]);
    });

    it('offers again for the gap a shifted move answers, without reading again; reads again when the task went', async () => {
      const a = await create('A');
      const b = await create('B');
      const c = await create('C');
      const offered: string[][] = [];
      const real = w.repos.moves;
      let reads = 0;
      const read = real.read.bind(real);
      real.read = async (...args) => (reads++, read(...args));
      const take = real.move.bind(real);
      // Another move lands in the gap first, below every offer: the answer names the gap as it is now.
      let landed = '';
      real.move = (input) => {
        offered.push(input.offers);
        if (offered.length === 1) w.store.rows.get(b.id)!.position = landed = rankBetween(a.position, input.offers[input.offers.length - 1]);
        return take(input);
      };
      w.uow.clear();
      const moved = await tasks.move(w.caller, c.id, { beforeId: null, afterId: a.id, values: undefined });
      expect(reads).toBe(1);
      expect(w.uow.writes.map((x) => x.landed)).toEqual([false, true]);
      expect(offered[1][0]).toBe(rankBetween(a.position, landed));
      expect(moved.position).toBe(offered[1][0]);

      // The task is gone by the time the statement runs: read again, and answer as the read finds it.
      real.move = (input) => {
        w.store.rows.delete(c.id);
        return take(input);
      };
      await expect(tasks.move(w.caller, c.id, { beforeId: b.id, afterId: null, values: undefined })).rejects.toEqual(refusal('task.not_found'));
    });

    it('gives up with server.busy when the gap keeps changing', async () => {
      const a = await create('A');
      const b = await create('B');
      const shifted = w.repos.moves.move.bind(w.repos.moves);
      w.repos.moves.move = (input) => shifted({ ...input, offers: [] });
      await expect(tasks.move(w.caller, b.id, { beforeId: a.id, afterId: null, values: undefined })).rejects.toEqual(refusal('server.busy'));
    });

    it('refuses values before the task, and an anchor that is not on the board', async () => {
      const a = await create('A');
      await expect(tasks.move(w.caller, IDS.todo, { beforeId: null, afterId: null, values: 3 })).rejects.toEqual(refusal('task.values_not_object'));
      await expect(tasks.move(w.caller, IDS.todo, { beforeId: null, afterId: null, values: undefined })).rejects.toEqual(refusal('task.not_found'));
      await expect(tasks.move(w.caller, a.id, { beforeId: IDS.todo, afterId: null, values: undefined })).rejects.toEqual(refusal('task.not_on_board'));
    });
  });
});
