import { Injectable } from '@nestjs/common';
import { ActivityLine, Clock, fail, feedLines, inTurn, isUuid, UnitOfWork, withEvents } from '@board/kernel';
import { PropertyDefsQuery, ValueNamesQuery } from '@board/persistence';
import { isEmptyValue, normalizeValue, StoredValue } from '@board/properties';
import { BulkArchive, BulkChange, BulkValues, DroppedRow, droppedRows, namesShown, Task, TaskRepository } from '@board/tasks';
import { ProjectCaller } from '../auth/auth-context';
import { lineBy, noticeEvent } from './task-events';

@Injectable()
export class BulkService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly valueNames: ValueNamesQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Archives named tasks, or a whole column; answers how many really went. One ring for all. */
  async archive(caller: ProjectCaller, command: BulkArchive): Promise<number> {
    const target = 'taskIds' in command ? command : await this.column(caller, command);
    return this.uow.write(
      async () => {
        // The column is read under the project lock, so a task deleted meanwhile is not named.
        const ids = 'taskIds' in target ? target.taskIds : await this.tasks.idsInColumn(caller.projectId, target.propertyId, target.value);
        // Row locks: save() writes whole rows, so a value write racing the archive must not be lost.
        const found = await this.tasks.findManyForUpdate(caller.projectId, ids);
        if (found.length !== ids.length) fail('bulk.task_not_on_board');
        // Set-based: one statement for the rows, one for the feed lines and their deliveries.
        const now = this.clock.now();
        const archived = found.filter((task) => task.archive(now));
        await this.tasks.saveMany(caller.projectId, archived, now, false);
        return withEvents(
          archived.length,
          feedLines(archived.map((task) => lineBy(caller, task.id, 'archive', { action: 'archived' }))),
          archived.length > 0 && noticeEvent(caller, 'board'),
        );
      },
      { lockProject: caller.projectId },
    );
  }

  /** The column a bulk archive names, checked against the project's properties. */
  private async column(caller: ProjectCaller, named: { propertyId: string; value: unknown }): Promise<{ propertyId: string; value: unknown }> {
    const defs = await this.defs.load(caller.projectId);
    if (!defs.some((d) => d.id === named.propertyId)) fail('property.not_in_project');
    // A missing value and null both mean the column of tasks holding nothing. Ids are kept in
    // lower case, and an upper-case id passes like everywhere else.
    const value = named.value === undefined ? null : isUuid(named.value) ? named.value.toLowerCase() : named.value;
    return { propertyId: named.propertyId, value };
  }

  /** One value on many tasks; `change` adds or takes off one option of a multi-select. */
  async values(caller: ProjectCaller, command: BulkValues): Promise<{ set: number; value: StoredValue; dropped: DroppedRow[] }> {
    const { taskIds: ids, propertyId } = command;
    const { defs, memberIds } = await this.defs.loadWithMembers(caller.projectId);
    const def = defs.find((d) => d.id === propertyId);
    if (!def) fail('property.not_in_project');
    const change = inTurn(command.change);
    if (change && def.type !== 'multi_select') fail('bulk.change_not_multi');
    const context = { memberIds };
    // Checked once for all tasks.
    const value = change ? (normalizeValue({ ...def, type: 'select' }, command.value, context) as string | null) : normalizeValue(def, command.value, context);
    if (change && value === null) fail('value.select', { name: def.name });
    // No project lock: row locks on the named tasks are enough, and bulk edits must not stall moves.
    return this.uow.write(async () => {
      const found = await this.tasks.findManyForUpdate(caller.projectId, ids);
      if (found.length !== ids.length) fail('bulk.task_not_on_board');
      if (found.some((t) => t.isArchived)) fail('bulk.archived');
      const nexts = found.map((task) => (change ? changeList(task, propertyId, value as string, change) : value));
      // The names every line may show, looked up at once for all tasks.
      const names = new Map<string, string>();
      await this.valueNames.addNames(caller.projectId, namesShown(new Map([[propertyId, [...new Set(nexts.flat().filter((v): v is string => typeof v === 'string'))]]]), defs), names);
      const dropped: DroppedRow[] = [];
      const changed: Task[] = [];
      const lines: ActivityLine[] = [];
      for (const [i, task] of found.entries()) {
        const plan = task.putValue(def, nexts[i], defs, names);
        dropped.push(...droppedRows(task.id, plan.dropped));
        if (!plan.changed) continue;
        changed.push(task);
        lines.push(...plan.lines.map((l) => lineBy(caller, task.id, 'value', l.data, l.assigned)));
      }
      // Set-based: one statement for the rows, one for the feed lines and their deliveries.
      await this.tasks.saveMany(caller.projectId, changed, this.clock.now(), true);
      const set = changed.length;
      return withEvents({ set, value, dropped }, feedLines(lines), set > 0 && noticeEvent(caller, 'board'));
    });
  }
}

function changeList(task: Task, propertyId: string, optionId: string, change: BulkChange): StoredValue {
  const current = task.values[propertyId];
  const list = Array.isArray(current) ? (current as string[]) : isEmptyValue(current) ? [] : [String(current)];
  if (change === 'add') return list.includes(optionId) ? list : [...list, optionId];
  return list.filter((id) => id !== optionId);
}
