import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, feedLine, parseId, ranksAfter, ranksBefore, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { ProjectFactsQuery, ValueNamesQuery, PropertyDefsQuery, RunQuery, TaskQuery } from '@board/persistence';
import { PropertyDef, StoredValue, valueRefers } from '@board/properties';
import {
  checkProjectRoom, CreateTask, createdLine, DroppedRow, droppedRows, EditTask, isTextClash, MoveInput, MoveOutcome, MovePlace, moveOffers, movePlace, MoveTask, namesShown,
  Placement, planValues, PutValue, RANK_OFFERS, RankGap, readCreateValues, readOneValue, readValuesMap, sendsNoValues, Task, TaskCreateRepository, TaskMoveRepository,
  TaskRepository, TaskValueRepository,
} from '@board/tasks';
import { ProjectCaller } from '../auth/auth-context';
import { lineBy, lineEvent, noticeEvent, valueLineEvents } from './task-events';

/** Tries of an optimistic write (a value write's compare-and-set, a create's read, a move's read) before it takes a lock or gives up. */
const OPTIMISTIC_TRIES = 3;
/** Statements a move runs for one read: each `shifted` answer brings the gap to offer for next. */
const MOVE_TURNS = 4;

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
    private readonly moveStore: TaskMoveRepository,
  ) {}

  async create(caller: ProjectCaller, command: CreateTask) {
    const id = randomUUID();
    const { placement } = command;
    if (placement === 'end' || placement === 'top') {
      const created = await this.createAtEdge(caller, id, command, placement === 'top');
      if (created) return created;
    }
    return this.createLocked(caller, id, command, placement);
  }

  /**
   * A create at the top or the end: one read, then one statement whose serial part runs inside
   * PostgreSQL (TaskCreateRepository), its events folded in by the unit of work. Answers null when
   * it kept losing races; the caller then takes the project lock from here.
   */
  private async createAtEdge(caller: ProjectCaller, id: string, command: CreateTask, atTop: boolean) {
    const projectId = caller.projectId;
    const { title, description } = command;
    for (let read = 0; read < OPTIMISTIC_TRIES; read++) {
      const context = await this.createStore.load(projectId);
      if (!context) fail('project.not_found');
      const { defs, memberIds, key, doneWhen, defsFingerprint } = context;
      const values = readCreateValues(command.values, defs, { memberIds });
      const line = createdLine(values, defs);
      let edge = atTop ? context.first : context.last;
      for (let offer = 0; offer < OPTIMISTIC_TRIES; offer++) {
        const now = this.clock.now();
        const result = await this.uow.writeStatement(() =>
          withEvents(
            this.createStore.create({
              projectId,
              id,
              title,
              description,
              values,
              createdBy: caller.userId,
              now,
              atTop,
              // More keys than writers that usually queue on one project, so a turn rarely runs out.
              ranks: atTop ? ranksBefore(edge, RANK_OFFERS) : ranksAfter(edge, RANK_OFFERS),
              defsFingerprint,
            }),
            feedLine(lineBy(caller, id, 'created', line.data, line.assigned)),
            noticeEvent(caller, 'board'),
          ),
        );
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

  /**
   * A create after a task (or at an edge, after losing races there), under the project lock: the
   * number, the count and the ends of the order are the lock's. A place after a task is not, so the
   * task goes in at the end and then takes its place as a move does (`TaskMoveRepository`).
   */
  private async createLocked(caller: ProjectCaller, id: string, command: CreateTask, placement: Placement) {
    const projectId = caller.projectId;
    const { title, description } = command;
    const created = await this.uow.write(
      async () => {
        const { defs, memberIds } = await this.defs.loadWithMembers(projectId);
        const values = readCreateValues(command.values, defs, { memberIds });
        const number = (await this.tasks.nextNumber(projectId)) ?? fail('task.project_full');
        let position = await this.tasks.edgeRank(projectId, placement === 'top' ? 'top' : 'end');
        const now = this.clock.now();
        await this.tasks.insert({ id, projectId, number, title, description, position, values, createdBy: caller.userId, now });
        if (typeof placement === 'object') position = await this.placeCreated(projectId, id, placement, position);
        const line = createdLine(values, defs);
        return withEvents(
          { id, number, title, description, position, values, createdAt: now },
          feedLine(lineBy(caller, id, 'created', line.data, line.assigned)),
          noticeEvent(caller, 'board'),
        );
      },
      { lockProject: projectId },
    );
    // A new task has no parts, links, checklist or comments: its board shape needs no read-back.
    const facts = await this.facts.load(projectId);
    return { ...this.queries.newTask(created, facts.key, facts.doneWhen), projectId, createdBy: caller.userId };
  }

  /** A new task, at the end for now, put next to its anchor; an anchor that is not there leaves it at the end. */
  private async placeCreated(projectId: string, id: string, placement: Exclude<Placement, string>, atEnd: string): Promise<string> {
    const place: MovePlace = 'afterId' in placement ? { side: 'after', anchorId: placement.afterId } : { side: 'before', anchorId: placement.beforeId };
    for (let read = 0; read < OPTIMISTIC_TRIES; read++) {
      const context = await this.moveStore.read(projectId, id, place);
      if (!context.anchor) return atEnd;
      const placed = await this.takeRank({ projectId, taskId: id, place }, context.gap, (input) => this.moveStore.moveInTransaction(input));
      if (placed) return placed.position;
    }
    fail('server.busy');
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
  async edit(caller: ProjectCaller, taskId: string, command: EditTask): Promise<void> {
    const { title, description, baseTitle, baseDescription } = command;
    if (title === undefined && description === undefined) return;
    await this.uow.write(async () => {
      const before = await this.tasks.editText(caller.projectId, taskId, { title, description }, this.clock.now());
      for (const [field, next, base] of [['title', title, baseTitle], ['description', description, baseDescription]] as const) {
        // Refused after the statement: the transaction rolls its write back.
        if (isTextClash(before[field], next, base)) fail('task.clash', {}, { field, current: before[field] });
      }
      if (!before.written) return silent(undefined);
      return withEvents(
        undefined,
        title !== undefined && before.title !== title && lineEvent(caller, taskId, 'title', {}),
        description !== undefined && before.description !== description && lineEvent(caller, taskId, 'description', {}),
        noticeEvent(caller, 'task', taskId),
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
        return withEvents(goesAt, lineEvent(caller, taskId, 'deleted', { action: 'deleted' }), noticeEvent(caller, 'board'));
      },
      { lockProject: caller.projectId },
    );
  }

  async restore(caller: ProjectCaller, taskId: string): Promise<void> {
    await this.uow.write(
      async () => {
        // The task and its parts, held in id order before any is written (releasePartsWithParts
        // writes parts): the order a move holds its task and its gap's neighbours in.
        await this.tasks.holdWithParts(caller.projectId, taskId);
        const task = await this.load(caller, taskId); // held above
        if (!task.undelete(this.clock.now())) return silent(undefined);
        // Under the project lock, which every write that adds tasks takes: the count cannot move meanwhile.
        checkProjectRoom(await this.tasks.taskCount(caller.projectId), 1);
        // Parts stay one level deep: while this task was away its parent may have become a part,
        // or its parts may have gained parts of their own. Such a link does not come back.
        const parent = task.parentId ? await this.tasks.find(caller.projectId, task.parentId) : null;
        if (parent && !parent.isDeleted && parent.parentId) task.setParent(null);
        await this.tasks.save(task, this.clock.now(), false);
        await this.tasks.releasePartsWithParts(caller.projectId, taskId);
        return withEvents(undefined, lineEvent(caller, taskId, 'deleted', { action: 'restored' }), noticeEvent(caller, 'board'));
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
      return withEvents(undefined, lineEvent(caller, taskId, 'archive', { action: archived ? 'archived' : 'restored' }), noticeEvent(caller, 'board'));
    });
  }

  /**
   * One value of one task; values a `when` rule now hides are deleted in the same write. The
   * common case is two round trips (read, then one compare-and-set statement that carries the
   * write's events); a write that keeps losing races on a busy task takes the task's row lock instead.
   */
  async putValue(caller: ProjectCaller, taskId: string, rawPropertyId: string, command: PutValue) {
    const propertyId = parseId(rawPropertyId, 'property');
    for (let attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
      const done = await this.putValueOnce(caller, taskId, propertyId, command);
      if (done) return done;
    }
    return this.uow.write(async () => {
      const { defs, memberIds } = await this.defs.loadWithMembers(caller.projectId);
      const { value } = readOneValue(command.value, defs, propertyId, { memberIds });
      const task = await this.load(caller, taskId, true);
      const { dropped, events } = await this.writeValues(caller, task, new Map([[propertyId, value]]), defs);
      return withEvents({ value, dropped }, events);
    });
  }

  /** Answers null when the task's values changed between the read and the write (nothing written). */
  private async putValueOnce(caller: ProjectCaller, taskId: string, propertyId: string, command: PutValue) {
    const { defs, memberIds, names, task } = await this.valueStore.load(caller.projectId, taskId);
    const { def, value } = readOneValue(command.value, defs, propertyId, { memberIds });
    if (!task) fail('task.not_found');
    const expected = task.values;
    const change = task.putValue(def, value, defs, names);
    const dropped = droppedRows(taskId, change.dropped);
    if (!change.changed) return { value, dropped };
    const written = await this.uow.writeStatement(() =>
      withEvents(
        this.valueStore.writeIfUnchanged({ task, expected, now: this.clock.now(), refers: valueRefers(def, value) }),
        valueLineEvents(caller, taskId, change.lines),
        noticeEvent(caller, 'board', taskId),
      ),
    );
    return written ? { value, dropped } : null;
  }

  /**
   * A move holds only its task and the two tasks of the gap it goes into (and the project lock at
   * either end of the order): see TaskMoveRepository. A bare move is one read and one statement
   * with its notice; a move with values runs the same statement inside the transaction that writes
   * them, before it loads the task (so the task's row is taken with the gap's, in id order).
   */
  async move(caller: ProjectCaller, taskId: string, command: MoveTask) {
    const place = movePlace(command);
    const projectId = caller.projectId;
    if (sendsNoValues(command.values)) {
      const placed = await this.placeMoved(projectId, taskId, place, (input) =>
        this.uow.writeStatement(() => withEvents(this.moveStore.move(input), noticeEvent(caller, 'board'))),
      );
      return { position: placed.position, dropped: [] as DroppedRow[] };
    }
    return this.uow.write(async () => {
      const { defs, memberIds } = await this.defs.loadWithMembers(projectId);
      const written = readValuesMap(command.values, defs, { memberIds });
      const placed = await this.placeMoved(projectId, taskId, place, (input) => this.moveStore.moveInTransaction(input));
      // Its row is held already when the move took a rank.
      const task = await this.load(caller, taskId, !placed.took);
      const { dropped, events } = await this.writeValues(caller, task, written, defs);
      // A value change already rang the board; a bare move rings it here.
      return withEvents({ position: placed.position, dropped }, events.length > 0 ? events : placed.moved && noticeEvent(caller, 'board'));
    });
  }

  /**
   * Reads the task, the anchor and the gap, refuses what the contract refuses, then takes a rank
   * in the gap with `take`. `took`: a move statement ran (and holds the task's row, in a transaction).
   */
  private async placeMoved(projectId: string, taskId: string, place: MovePlace, take: (input: MoveInput) => Promise<MoveOutcome>) {
    for (let read = 0; read < OPTIMISTIC_TRIES; read++) {
      const context = await this.moveStore.read(projectId, taskId, place);
      if (!context.task) fail('task.not_found');
      if (place.anchorId === taskId) return { position: context.task.position, moved: false, took: false };
      // A deleted task is gone for every route, so it anchors nothing either.
      if (place.side !== 'end' && (!context.anchor || context.anchor.deleted)) fail('task.not_on_board');
      const placed = await this.takeRank({ projectId, taskId, place }, context.gap, take);
      if (placed) return { ...placed, took: true };
    }
    fail('server.busy');
  }

  /**
   * Offers ranks for the gap and runs the move; a `shifted` answer brings the gap to offer for
   * next. Null when the task or the anchor went meanwhile, or the gap kept changing: read again.
   */
  private async takeRank(
    move: Omit<MoveInput, 'offers'>,
    read: RankGap,
    take: (input: MoveInput) => Promise<MoveOutcome>,
  ): Promise<{ position: string; moved: boolean } | null> {
    let gap = read;
    for (let turn = 0; turn < MOVE_TURNS; turn++) {
      const result = await take({ ...move, offers: moveOffers(move.place, gap, RANK_OFFERS) });
      if (result.outcome === 'gone') return null;
      if (result.outcome === 'shifted') gap = result.gap;
      else return { position: result.position, moved: result.outcome === 'moved' };
    }
    return null;
  }

  /**
   * Writes values onto a loaded task (locked by the caller) through the aggregate, saves. Answers
   * the drops, and the caller's events: the `value` lines and the board's ring, when the values
   * changed.
   */
  private async writeValues(
    caller: ProjectCaller,
    task: Task,
    written: ReadonlyMap<string, StoredValue>,
    defs: readonly PropertyDef[],
  ): Promise<{ dropped: DroppedRow[]; events: WriteEvent[] }> {
    if (written.size === 0) return { dropped: [], events: [] };
    const names = new Map<string, string>();
    // The names the lines show are looked up only for a write that tells something.
    if (planValues(task.values, written, defs, names).changed) await this.valueNames.addNames(caller.projectId, namesShown(written, defs), names);
    const change = task.putValues(written, defs, names);
    const dropped = droppedRows(task.id, change.dropped);
    if (!change.changed) return { dropped, events: [] };
    await this.tasks.save(task, this.clock.now());
    return { dropped, events: [...valueLineEvents(caller, task.id, change.lines), noticeEvent(caller, 'board', task.id)] };
  }

  async deleted(caller: ProjectCaller) {
    const facts = await this.facts.load(caller.projectId);
    return this.queries.deleted(caller.projectId, facts.key, this.clock.now());
  }

  async search(caller: ProjectCaller, q: string) {
    const facts = await this.facts.load(caller.projectId);
    return this.queries.searchArchived(caller.projectId, facts.key, q);
  }

  private async load(caller: ProjectCaller, taskId: string, lock = false): Promise<Task> {
    const task = await this.tasks.find(caller.projectId, taskId, lock);
    if (!task) fail('task.not_found');
    return task;
  }
}
