import { Injectable } from '@nestjs/common';
import { ActivityLine, Clock, fail, feedLines, isUuid, parseId, UnitOfWork, withEvents } from '@board/kernel';
import { PropertyDefsQuery } from '@board/persistence';
import { BulkArchiveBody, BulkValuesBody, readTaskIds } from './tasks.dto';
import { isEmptyValue, normalizeValue, StoredValue } from '@board/properties';
import { Task, TaskRepository } from '@board/tasks';
import { ProjectCaller } from '../auth/auth-context';
import { DroppedRow, TasksService } from './tasks.service';

@Injectable()
export class BulkService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly taskService: TasksService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Archives named tasks, or a whole column; answers how many really went. One ring for all. */
  async archive(caller: ProjectCaller, body: BulkArchiveBody): Promise<number> {
    let target: { named: string[] } | { column: { propertyId: string; value: unknown } };
    if (body.taskIds !== undefined) target = { named: readTaskIds(body.taskIds) };
    else if (body.propertyId !== undefined) {
      const propertyId = parseId(body.propertyId, 'property');
      const defs = await this.defs.load(caller.projectId);
      if (!defs.some((d) => d.id === propertyId)) fail('property.not_in_project');
      // A missing value and null both mean the column of tasks holding nothing. Ids are kept in
      // lower case, and an upper-case id passes like everywhere else.
      const value = body.value === undefined ? null : isUuid(body.value) ? body.value.toLowerCase() : body.value;
      target = { column: { propertyId, value } };
    } else return fail('bulk.no_target');
    return this.uow.write(
      async () => {
        // The column is read under the project lock, so a task deleted meanwhile is not named.
        const ids = 'named' in target ? target.named : await this.tasks.idsInColumn(caller.projectId, target.column.propertyId, target.column.value);
        // Row locks: save() writes whole rows, so a value write racing the archive must not be lost.
        const found = await this.tasks.findManyForUpdate(caller.projectId, ids);
        if (found.length !== ids.length) fail('bulk.task_not_on_board');
        // Set-based: one statement for the rows, one for the feed lines and their deliveries.
        const now = this.clock.now();
        const archived = found.filter((task) => task.archive(now));
        await this.tasks.saveMany(caller.projectId, archived, now, false);
        return withEvents(
          archived.length,
          feedLines(archived.map((task) => this.taskService.line(caller, task.id, 'archive', { action: 'archived' }))),
          archived.length > 0 && this.taskService.noticeEvent(caller, 'board'),
        );
      },
      { lockProject: caller.projectId },
    );
  }

  /** One value on many tasks; `change` adds or takes off one option of a multi-select. */
  async values(caller: ProjectCaller, body: BulkValuesBody): Promise<{ set: number; value: StoredValue; dropped: DroppedRow[] }> {
    const ids = readTaskIds(body.taskIds);
    if (body.propertyId === undefined || body.propertyId === null) fail('bulk.no_property');
    const propertyId = parseId(body.propertyId, 'property');
    const { defs, memberIds } = await this.defs.loadWithMembers(caller.projectId);
    const def = defs.find((d) => d.id === propertyId);
    if (!def) fail('property.not_in_project');
    const change = body.change;
    if (change !== undefined && change !== null && change !== 'add' && change !== 'remove') fail('bulk.change_invalid');
    if (change && def.type !== 'multi_select') fail('bulk.change_not_multi');
    const context = { memberIds };
    // Checked once for all tasks.
    const value = change ? (normalizeValue({ ...def, type: 'select' }, body.value, context) as string | null) : normalizeValue(def, body.value, context);
    if (change && value === null) fail('value.select', { name: def.name });
    // No project lock: row locks on the named tasks are enough, and bulk edits must not stall moves.
    return this.uow.write(async () => {
      const found = await this.tasks.findManyForUpdate(caller.projectId, ids);
      if (found.length !== ids.length) fail('bulk.task_not_on_board');
      if (found.some((t) => t.isArchived)) fail('bulk.archived');
      const dropped: DroppedRow[] = [];
      const names = new Map<string, string>();
      const changed: Task[] = [];
      const lines: ActivityLine[] = [];
      for (const task of found) {
        const next = change ? changeList(task, propertyId, value as string, change as 'add' | 'remove') : value;
        const plan = await this.taskService.planValues(caller, task, new Map([[propertyId, next]]), defs, names);
        dropped.push(...plan.rows);
        if (!plan.changed) continue;
        changed.push(task);
        lines.push(...plan.lines);
      }
      // Set-based: one statement for the rows, one for the feed lines and their deliveries.
      await this.tasks.saveMany(caller.projectId, changed, this.clock.now(), true);
      const set = changed.length;
      return withEvents({ set, value, dropped }, feedLines(lines), set > 0 && this.taskService.noticeEvent(caller, 'board'));
    });
  }
}

function changeList(task: Task, propertyId: string, optionId: string, change: 'add' | 'remove'): StoredValue {
  const current = task.values[propertyId];
  const list = Array.isArray(current) ? (current as string[]) : isEmptyValue(current) ? [] : [String(current)];
  if (change === 'add') return list.includes(optionId) ? list : [...list, optionId];
  return list.filter((id) => id !== optionId);
}
