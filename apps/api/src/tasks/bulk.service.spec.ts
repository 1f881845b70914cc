import { readInTurn } from '@board/kernel';
import { readBulkChange } from '@board/tasks';
import { IDS, taskWorld, TaskWorld } from '../../../../test/support/in-memory/task-world';
import { BulkService } from './bulk.service';
import { TasksService } from './tasks.service';

/** `change` as the request DTO reads it (its refusal kept for its turn). */
const change = (sent: unknown) => readInTurn(() => readBulkChange(sent));

const refusal = (code: string) => expect.objectContaining({ code });
/** Rows led by a task id, in id order (a bulk write takes its tasks in id order, so the ids' randomness sets it). */
const byTask = (rows: unknown[][]) => [...rows].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));

describe('BulkService', () => {
  let w: TaskWorld;
  let bulk: BulkService;
  let ids: string[];

  beforeEach(async () => {
    w = taskWorld();
    bulk = new BulkService(w.repos.tasks, w.reads.defs, w.reads.names, w.uow, w.clock);
    const tasks = new TasksService(w.repos.tasks, w.reads.tasks, w.reads.defs, w.reads.facts, w.uow, w.clock, w.reads.names, w.reads.runs, w.repos.values, w.repos.creates, w.repos.moves);
    ids = [];
    for (const [title, values] of [['A', { [IDS.labels]: [IDS.bug] }], ['B', { [IDS.who]: IDS.ann }], ['C', {}]] as const) {
      ids.push((await tasks.create(w.caller, { title, description: '', placement: 'end', values })).id);
    }
    w.uow.clear();
  });

  describe('values', () => {
    it('one write for all tasks: a line per task that changed, one board notice, the people it assigned', async () => {
      const answer = await bulk.values(w.caller, { taskIds: ids, propertyId: IDS.who, change: change(undefined), value: IDS.ann });
      expect(answer).toEqual({ set: 2, value: IDS.ann, dropped: [] });
      expect(w.uow.writes).toEqual([expect.objectContaining({ form: 'write', options: undefined, landed: true })]);
      expect(byTask(w.uow.lines.map((l) => [l.taskId, l.kind, l.data, l.assigned]))).toEqual(
        byTask([
          [ids[0], 'value', { property: 'Who', value: 'Ann' }, [{ propertyId: IDS.who, propertyName: 'Who', userIds: [IDS.ann] }]],
          [ids[2], 'value', { property: 'Who', value: 'Ann' }, [{ propertyId: IDS.who, propertyName: 'Who', userIds: [IDS.ann] }]],
        ]),
      );
      expect(w.uow.notices).toEqual([{ projectId: IDS.project, scope: 'board', taskId: null, clientId: 'tab-1' }]);
    });

    it('adds an option to each multi-select: the lines name every option the task now holds', async () => {
      await bulk.values(w.caller, { taskIds: [ids[0], ids[2]], propertyId: IDS.labels, change: change('add'), value: IDS.ui });
      expect(byTask(w.uow.lines.map((l) => [l.taskId, l.data.value]))).toEqual(byTask([[ids[0], ['Bug', 'UI']], [ids[2], ['UI']]]));
    });

    it('nothing changed: nothing told', async () => {
      await bulk.values(w.caller, { taskIds: [ids[1]], propertyId: IDS.who, change: change(null), value: IDS.ann });
      expect(w.uow.events).toEqual([]);
    });

    it('refuses in the contract’s order, telling nothing', async () => {
      const missing = '50000000-0000-4000-8000-000000000009';
      await expect(bulk.values(w.caller, { taskIds: ids, propertyId: missing, change: change('odd'), value: 1 })).rejects.toEqual(refusal('property.not_in_project'));
      await expect(bulk.values(w.caller, { taskIds: ids, propertyId: IDS.labels, change: change('odd'), value: 1 })).rejects.toEqual(refusal('bulk.change_invalid'));
      await expect(bulk.values(w.caller, { taskIds: ids, propertyId: IDS.status, change: change('add'), value: IDS.todo })).rejects.toEqual(refusal('bulk.change_not_multi'));
      await expect(bulk.values(w.caller, { taskIds: ids, propertyId: IDS.labels, change: change('add'), value: null })).rejects.toEqual(refusal('value.select'));
      await expect(bulk.values(w.caller, { taskIds: [...ids, missing], propertyId: IDS.size, change: change(undefined), value: 2 })).rejects.toEqual(refusal('bulk.task_not_on_board'));
      await bulk.archive(w.caller, { taskIds: [ids[2]] });
      w.uow.clear();
      await expect(bulk.values(w.caller, { taskIds: ids, propertyId: IDS.size, change: change(undefined), value: 2 })).rejects.toEqual(refusal('bulk.archived'));
      expect(w.uow.events).toEqual([]);
    });
  });

  describe('archive', () => {
    it('named tasks under the project lock: a line per task that went, one notice; again, nothing', async () => {
      expect(await bulk.archive(w.caller, { taskIds: [ids[0], ids[1]] })).toBe(2);
      expect(w.uow.writes).toEqual([expect.objectContaining({ options: { lockProject: IDS.project }, landed: true })]);
      expect(byTask(w.uow.lines.map((l) => [l.taskId, l.kind, l.data]))).toEqual(
        byTask([
          [ids[0], 'archive', { action: 'archived' }],
          [ids[1], 'archive', { action: 'archived' }],
        ]),
      );
      expect(w.uow.notices).toHaveLength(1);
      w.uow.clear();
      expect(await bulk.archive(w.caller, { taskIds: [ids[0]] })).toBe(0);
      expect(w.uow.events).toEqual([]);
    });

    it('a column: the tasks holding the value (an upper-case id too), or holding nothing', async () => {
      expect(await bulk.archive(w.caller, { propertyId: IDS.who, value: IDS.ann.toUpperCase() })).toBe(1);
      expect(w.uow.lines.map((l) => l.taskId)).toEqual([ids[1]]);
      expect(await bulk.archive(w.caller, { propertyId: IDS.who, value: undefined })).toBe(2);
    });

    it('refuses a property of another project and a task not on the board', async () => {
      await expect(bulk.archive(w.caller, { propertyId: IDS.todo, value: null })).rejects.toEqual(refusal('property.not_in_project'));
      await expect(bulk.archive(w.caller, { taskIds: [IDS.todo] })).rejects.toEqual(refusal('bulk.task_not_on_board'));
      expect(w.uow.events).toEqual([]);
    });
  });
});
