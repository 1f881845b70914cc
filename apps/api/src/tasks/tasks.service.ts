import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ActivityLine, Clock, fail, feedLine, feedLines, notice, parseId, ranksAfter, ranksBefore, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { ProjectFactsQuery, ValueNamesQuery, PropertyDefsQuery, RunQuery, TaskQuery } from '@board/persistence';
import { clearedValue, DroppedValue, isEmptyValue, PropertyDef, StoredValue, TaskValues, valueRefers } from '@board/properties';
import { checkProjectRoom, isTextClash, Placement, readDescription, readTitle, Task, TaskCreateRepository, taskKey, TaskRepository, TaskValueRepository } from '@board/tasks';
import type { CreateTaskBody, EditTaskBody, MoveTaskBody, PutValueBody } from './tasks.dto';
import { changesByLine, changesData, createdLineData, SelectChanges, selectChanges } from '@board/charts';
import { assignedBetween } from '@board/notifications';
import { ProjectCaller } from '../auth/auth-context';
import { applyValues, readCreateValues, readOneValue, readValuesMap } from './task-values';

/** Tries of an optimistic write (a value write's compare-and-set, a create's read) before it takes a lock. */
const OPTIMISTIC_TRIES = 3;
/** Ranks a create at an edge offers: the first one past the edge when its turn comes is taken. */
const RANK_OFFERS = 32;

export interface DroppedRow {
  taskId: string;
  propertyId: string;
  name: string;
}

@Injectable()
export class TasksService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly queries: TaskQuery,
    private readonly defs: PropertyDefsQuery,
    private readonly facts: ProjectFactsQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly valueNames: ValueNamesQuery,
    private readonly runs: RunQuery,
    private readonly valueStore: TaskValueRepository,
    private readonly createStore: TaskCreateRepository,
  ) {}

  async create(caller: ProjectCaller, body: CreateTaskBody) {
    const title = readTitle(body.title, true);
    const description = readDescription(body.description) ?? '';
    const afterId = body.afterId === undefined || body.afterId === null ? null : parseId(body.afterId, 'task');
    const placement: Placement = afterId ? { afterId } : body.atTop === true ? 'top' : 'end';
    const id = randomUUID();
    if (placement === 'end' || placement === 'top') {
      const created = await this.createAtEdge(caller, id, title, description, placement === 'top', body.values);
      if (created) return created;
    }
    return this.createLocked(caller, id, title, description, placement, body.values);
  }

  /**
   * A create at the top or the end: one read, then one statement whose serial part runs inside
   * PostgreSQL (TaskCreateRepository). Answers null when it kept losing races; the caller then takes
   * the project lock from here.
   */
  private async createAtEdge(caller: ProjectCaller, id: string, title: string, description: string, atTop: boolean, rawValues: unknown) {
    const projectId = caller.projectId;
    for (let read = 0; read < OPTIMISTIC_TRIES; read++) {
      const context = await this.createStore.load(projectId);
      if (!context) fail('project.not_found');
      const { defs, memberIds, key, doneWhen, defsFingerprint } = context;
      const values = readCreateValues(rawValues, defs, { memberIds });
      let edge = atTop ? context.first : context.last;
      for (let offer = 0; offer < OPTIMISTIC_TRIES; offer++) {
        const now = this.clock.now();
        const result = await this.createStore.create({
          projectId,
          id,
          title,
          description,
          values,
          line: createdLineData(values, defs),
          createdBy: caller.userId,
          now,
          atTop,
          // More keys than writers that usually queue on one project, so a turn rarely runs out.
          ranks: atTop ? ranksBefore(edge, RANK_OFFERS) : ranksAfter(edge, RANK_OFFERS),
          defsFingerprint,
          notice: { projectId, scope: 'board', clientId: caller.clientId },
        });
        if (result.outcome === 'full') fail('task.project_full');
        if (result.outcome === 'stale') break;
        if (result.outcome === 'moved') {
          edge = result.edge;
          continue;
        }
        const task = this.queries.newTask({ id, number: result.number, title, description, position: result.position, values, createdAt: now }, key, doneWhen);
        return { ...task, projectId, createdBy: caller.userId };
      }
    }
    return null;
  }

  private async createLocked(caller: ProjectCaller, id: string, title: string, description: string, placement: Placement, rawValues: unknown) {
    const projectId = caller.projectId;
    const created = await this.uow.write(
      async () => {
        const { defs, memberIds } = await this.defs.loadWithMembers(projectId);
        const values = readCreateValues(rawValues, defs, { memberIds });
        const number = (await this.tasks.nextNumber(projectId)) ?? fail('task.project_full');
        const position = await this.tasks.rankFor(projectId, placement);
        const now = this.clock.now();
        await this.tasks.insert({ id, projectId, number, title, description, position, values, createdBy: caller.userId, now });
        return withEvents(
          { id, number, title, description, position, values, createdAt: now },
          feedLine({ ...this.line(caller, id, 'created', createdLineData(values, defs)), assigned: assignedBetween({}, values, defs) }),
          this.noticeEvent(caller, 'board'),
        );
      },
      { lockProject: projectId },
    );
    // A new task has no parts, links, checklist or comments: its board shape needs no read-back.
    const facts = await this.facts.load(projectId);
    return { ...this.queries.newTask(created, facts.key, facts.doneWhen), projectId, createdBy: caller.userId };
  }

  async read(caller: ProjectCaller, taskId: string) {
    const facts = await this.facts.load(caller.projectId);
    const task = await this.queries.full(caller.projectId, facts.key, facts.doneWhen, taskId);
    if (!task) fail('task.not_found');
    const [run, past] = await Promise.all([
      this.runs.openOnTask(caller.projectId, taskId),
      this.runs.past(caller.projectId, taskId, 20),
    ]);
    return { ...task, run, pastRuns: past.runs };
  }

  /** Title and description, each compared with its base and written in one statement. */
  async edit(caller: ProjectCaller, taskId: string, body: EditTaskBody): Promise<void> {
    const title = readTitle(body.title, false);
    const description = readDescription(body.description);
    if (title === undefined && description === undefined) return;
    const baseTitle = typeof body.baseTitle === 'string' ? body.baseTitle : undefined;
    const baseDescription = typeof body.baseDescription === 'string' ? body.baseDescription : undefined;
    await this.uow.write(async () => {
      const before = await this.tasks.editText(caller.projectId, taskId, { title, description }, this.clock.now());
      for (const [field, next, base] of [['title', title, baseTitle], ['description', description, baseDescription]] as const) {
        // Refused after the statement: the transaction rolls its write back.
        if (isTextClash(before[field], next, base)) fail('task.clash', {}, { field, current: before[field] });
      }
      if (!before.written) return silent(undefined);
      return withEvents(
        undefined,
        title !== undefined && before.title !== title && this.lineEvent(caller, taskId, 'title', {}),
        description !== undefined && before.description !== description && this.lineEvent(caller, taskId, 'description', {}),
        this.noticeEvent(caller, 'task', taskId),
      );
    });
  }

  async remove(caller: ProjectCaller, taskId: string): Promise<Date> {
    return this.uow.write(
      async () => {
        // Row lock: save() writes the whole row, so a value write or archive racing this must not be overwritten (nor overwrite it).
        const task = await this.load(caller, taskId, true);
        const goesAt = task.delete(this.clock.now());
        await this.tasks.save(task, this.clock.now(), false);
        return withEvents(goesAt, this.lineEvent(caller, taskId, 'deleted', { action: 'deleted' }), this.noticeEvent(caller, 'board'));
      },
      { lockProject: caller.projectId },
    );
  }

  async restore(caller: ProjectCaller, taskId: string): Promise<void> {
    await this.uow.write(
      async () => {
        const task = await this.load(caller, taskId, true);
        if (!task.undelete(this.clock.now())) return silent(undefined);
        // Under the project lock, which every write that adds tasks takes: the count cannot move meanwhile.
        checkProjectRoom(await this.tasks.taskCount(caller.projectId), 1);
        // Parts stay one level deep: while this task was away its parent may have become a part,
        // or its parts may have gained parts of their own. Such a link does not come back.
        const parent = task.parentId ? await this.tasks.find(caller.projectId, task.parentId) : null;
        if (parent && !parent.isDeleted && parent.parentId) task.setParent(null);
        await this.tasks.save(task, this.clock.now(), false);
        await this.tasks.releasePartsWithParts(caller.projectId, taskId);
        return withEvents(undefined, this.lineEvent(caller, taskId, 'deleted', { action: 'restored' }), this.noticeEvent(caller, 'board'));
      },
      { lockProject: caller.projectId },
    );
  }

  async setArchived(caller: ProjectCaller, taskId: string, archived: boolean): Promise<void> {
    await this.uow.write(async () => {
      // Row lock: save() writes the whole row (values, position, deleted_at), so read it fresh and hold it.
      const task = await this.load(caller, taskId, true);
      const changed = archived ? task.archive(this.clock.now()) : task.unarchive();
      if (!changed) return silent(undefined);
      await this.tasks.save(task, this.clock.now(), false);
      return withEvents(undefined, this.lineEvent(caller, taskId, 'archive', { action: archived ? 'archived' : 'restored' }), this.noticeEvent(caller, 'board'));
    });
  }

  /**
   * One value of one task; values a `when` rule now hides are deleted in the same write. The
   * common case is two round trips (read, then one compare-and-set statement); a write that keeps
   * losing races on a busy task takes the task's row lock instead.
   */
  async putValue(caller: ProjectCaller, taskId: string, rawPropertyId: string, body: PutValueBody) {
    const propertyId = parseId(rawPropertyId, 'property');
    for (let attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
      const done = await this.putValueOnce(caller, taskId, propertyId, body);
      if (done) return done;
    }
    return this.uow.write(async () => {
      const { defs, memberIds } = await this.defs.loadWithMembers(caller.projectId);
      const { value } = readOneValue(body.value, defs, propertyId, { memberIds });
      const task = await this.load(caller, taskId, true);
      const { rows: dropped, events } = await this.writeValues(caller, task, new Map([[propertyId, value]]), defs);
      return withEvents({ value, dropped }, events);
    });
  }

  /** Answers null when the task's values changed between the read and the write (nothing written). */
  private async putValueOnce(caller: ProjectCaller, taskId: string, propertyId: string, body: PutValueBody) {
    const { defs, memberIds, names, task } = await this.valueStore.load(caller.projectId, taskId);
    const { def, value } = readOneValue(body.value, defs, propertyId, { memberIds });
    if (!task) fail('task.not_found');
    const before = task.values;
    const { values, dropped } = applyValues(before, new Map([[propertyId, value]]), defs);
    const rows = dropped.map((d) => ({ taskId, propertyId: d.propertyId, name: d.name }));
    if (!task.replaceValues(values)) return { value, dropped: rows };
    const written = await this.valueStore.writeIfUnchanged({
      task: task,
      expected: before,
      now: this.clock.now(),
      actorId: caller.userId,
      line: lineless(before, propertyId, value, dropped) ? null : valueLine(def, value, dropped, names, selectChanges(before, values, defs)),
      notice: { projectId: caller.projectId, scope: 'board', taskId, clientId: caller.clientId },
      refers: valueRefers(def, value),
    });
    return written ? { value, dropped: rows } : null;
  }

  async move(caller: ProjectCaller, taskId: string, body: MoveTaskBody) {
    const beforeId = body.beforeId === undefined || body.beforeId === null ? null : parseId(body.beforeId, 'task');
    const afterId = beforeId || body.afterId === undefined || body.afterId === null ? null : parseId(body.afterId, 'task');
    return this.uow.write(
      async () => {
        const { defs, memberIds } = await this.defs.loadWithMembers(caller.projectId);
        const written = readValuesMap(body.values, defs, { memberIds });
        const task = await this.load(caller, taskId, true);
        const anchorId = beforeId ?? afterId;
        if (anchorId && anchorId !== taskId) {
          // A deleted task is gone for every route, so it anchors nothing either.
          const anchor = await this.tasks.find(caller.projectId, anchorId);
          if (!anchor || anchor.isDeleted) fail('task.not_on_board');
        }
        let position = task.snapshot.position;
        if (anchorId !== taskId) {
          position = await this.tasks.rankFor(caller.projectId, beforeId ? { beforeId } : afterId ? { afterId } : 'end', taskId);
        }
        const moved = task.moveTo(position);
        const before = JSON.stringify(task.values);
        const { rows: dropped, events } = await this.writeValues(caller, task, written, defs, moved);
        if (moved && written.size === 0) await this.tasks.save(task, this.clock.now(), false);
        // A value change already rang the board; a bare move rings it here.
        return withEvents({ position, dropped }, events, moved && JSON.stringify(task.values) === before && this.noticeEvent(caller, 'board'));
      },
      { lockProject: caller.projectId },
    );
  }

  /**
   * Writes values onto a loaded task (locked by the caller), drops what `when` rules now hide,
   * saves. Answers the drops, and the caller's events: one `value` line per written property and
   * the board's ring, when the values changed.
   */
  async writeValues(
    caller: ProjectCaller,
    task: Task,
    written: ReadonlyMap<string, StoredValue>,
    defs: readonly PropertyDef[],
    forceSave = false,
  ): Promise<{ rows: DroppedRow[]; events: WriteEvent[] }> {
    if (written.size === 0) return { rows: [], events: [] };
    const { changed, rows, lines } = await this.planValues(caller, task, written, defs);
    if (!changed && !forceSave) return { rows, events: [] };
    await this.tasks.save(task, this.clock.now(), changed);
    return { rows, events: changed ? [...feedLines(lines), this.noticeEvent(caller, 'board', task.id)] : [] };
  }

  /**
   * Values applied to a loaded task in memory (nothing written): whether it changed, what `when`
   * rules dropped, and its `value` feed lines. `names` holds the option and people names already
   * looked up; a bulk write shares one across its tasks.
   */
  async planValues(
    caller: ProjectCaller,
    task: Task,
    written: ReadonlyMap<string, StoredValue>,
    defs: readonly PropertyDef[],
    names = new Map<string, string>(),
  ): Promise<{ changed: boolean; rows: DroppedRow[]; lines: ActivityLine[] }> {
    const before = task.values;
    const { values, dropped } = applyValues(before, written, defs);
    const changed = task.replaceValues(values);
    const rows = dropped.map((d) => ({ taskId: task.id, propertyId: d.propertyId, name: d.name }));
    const lines: ActivityLine[] = [];
    if (changed) {
      const told = [...written].filter(([propertyId, value]) => !lineless(before, propertyId, value, dropped));
      const changes = changesByLine(selectChanges(before, values, defs), told.map(([propertyId]) => propertyId));
      for (const [i, [propertyId, value]] of told.entries()) {
        // Written values were read against these definitions: the lookup cannot miss.
        const def = defs.find((d) => d.id === propertyId) ?? fail('property.not_in_project');
        const data = await this.valueData(caller.projectId, def, value, dropped, names, changes[i]);
        lines.push({ ...this.line(caller, task.id, 'value', data), assigned: assignedBetween(before, values, [def]) });
      }
    }
    return { changed, rows, lines };
  }

  /** Feed data of a value line; looks up only the names `names` does not hold yet, and keeps them there. */
  private async valueData(projectId: string, def: PropertyDef, value: StoredValue, dropped: DroppedValue[], names: Map<string, string>, changes: SelectChanges): Promise<ActivityLine['data']> {
    const ids = isEmptyValue(value) ? [] : Array.isArray(value) ? (value as string[]) : [value as string];
    const missing = ids.filter((id) => !names.has(id));
    if (missing.length > 0 && (def.type === 'select' || def.type === 'iteration' || def.type === 'multi_select')) {
      for (const r of await this.valueNames.optionNames(projectId, def.id, missing)) names.set(r.id, r.name);
    } else if (missing.length > 0 && def.type === 'person') {
      const name = await this.valueNames.personName(missing[0]);
      if (name !== null) names.set(missing[0], name);
    }
    return valueLine(def, value, dropped, names, changes);
  }

  async deleted(caller: ProjectCaller) {
    const facts = await this.facts.load(caller.projectId);
    return this.queries.deleted(caller.projectId, facts.key, this.clock.now());
  }

  async search(caller: ProjectCaller, q: unknown) {
    const facts = await this.facts.load(caller.projectId);
    return this.queries.searchArchived(caller.projectId, facts.key, typeof q === 'string' ? q : '');
  }

  async load(caller: ProjectCaller, taskId: string, lock = false): Promise<Task> {
    const task = await this.tasks.find(caller.projectId, taskId, lock);
    if (!task) fail('task.not_found');
    return task;
  }

  async keyOf(projectId: string, number: number): Promise<string> {
    return taskKey((await this.facts.load(projectId)).key, number);
  }

  /** A feed line by the caller, as an event of its write. */
  lineEvent(caller: ProjectCaller, taskId: string | null, kind: ActivityLine['kind'], data: ActivityLine['data']): WriteEvent {
    return feedLine(this.line(caller, taskId, kind, data));
  }

  /** A feed line by the caller. */
  line(caller: ProjectCaller, taskId: string | null, kind: ActivityLine['kind'], data: ActivityLine['data']): ActivityLine {
    return { projectId: caller.projectId, taskId, actorId: caller.userId, kind, data };
  }

  /** A stream notice of the caller's write. */
  noticeEvent(caller: ProjectCaller, scope: 'board' | 'task' | 'project', taskId?: string): WriteEvent {
    return notice({ projectId: caller.projectId, scope, taskId: taskId ?? null, clientId: caller.clientId });
  }
}

/** A value write that leaves no feed line: the property's value did not change and nothing was dropped. */
function lineless(before: Readonly<TaskValues>, propertyId: string, value: StoredValue, dropped: readonly DroppedValue[]): boolean {
  return dropped.length === 0 && JSON.stringify(before[propertyId] ?? null) === JSON.stringify(isEmptyValue(value) ? null : value);
}

/** Feed data of a value line: the property's and the value's names, plus what a hiding write dropped. */
function valueLine(def: PropertyDef, value: StoredValue, dropped: DroppedValue[], names: ReadonlyMap<string, string>, changes: SelectChanges): ActivityLine['data'] {
  const data: ActivityLine['data'] = { property: def.name, value: describeValue(def, value, names), ...changesData(changes) };
  if (dropped.length > 0) {
    data.dropped = dropped.map((d) => d.name);
    data.propertyIds = dropped.map((d) => d.propertyId);
    data.hidBy = def.type === 'select' && typeof value === 'string' ? value : null;
  }
  return data;
}

/** The options or people a value names, for the write to check that they are still there. */
function describeValue(def: PropertyDef, value: StoredValue, names: ReadonlyMap<string, string>): unknown {
  if (isEmptyValue(value)) return clearedValue(def.type);
  if (def.type === 'select' || def.type === 'iteration' || def.type === 'multi_select') {
    const ids = Array.isArray(value) ? (value as string[]) : [value as string];
    const shown = ids.map((id) => names.get(id) ?? id);
    return Array.isArray(value) ? shown : shown[0];
  }
  if (def.type === 'person') return names.get(value as string) ?? value;
  return value;
}
