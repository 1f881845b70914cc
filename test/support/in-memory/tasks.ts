import { rankBetween } from '@board/kernel';
import { PropertyDef, TaskValues, valueRefers } from '@board/properties';
import {
  CreateContext, CreateInput, CreateOutcome, DoneWhen, Link, MAX_PROJECT_TASKS, MoveContext, MoveInput, MoveOutcome, MovePlace, NewTask, RankGap, Task,
  TaskCreateRepository, TaskMoveRepository, TaskProps, TaskRepository, TaskValueRepository, ValueWrite, ValueWriteContext,
} from '@board/tasks';
import { InMemoryStatement } from '../recording-unit-of-work';

/** A project as the task adapters see it: key, done rule, properties, members (with names). */
export interface InMemoryProject {
  id: string;
  key: string;
  doneWhen: DoneWhen | null;
  defs: PropertyDef[];
  /** Member user id → name. */
  members: Map<string, string>;
  /** Option id → name. */
  optionNames: Map<string, string>;
  /** Moves whenever properties, options or members change (`touch`), as the xmin fingerprint does. */
  version: number;
}

type Row = TaskProps & { createdBy: string; createdAt: Date; updatedAt: Date };

/**
 * The state the in-memory task adapters share in one spec: projects, tasks, links, counters. No
 * transactions: a refused write is not rolled back (specs assert what the write declared).
 */
export class InMemoryTaskStore {
  readonly projects = new Map<string, InMemoryProject>();
  readonly rows = new Map<string, Row>();
  readonly links: Link[] = [];
  readonly counters = new Map<string, number>();

  project(id: string): InMemoryProject {
    const project = this.projects.get(id);
    if (!project) throw new Error(`no project ${id} in the in-memory store`);
    return project;
  }

  /** A task of the project, as a fresh aggregate (deleted ones too), or null. */
  find(projectId: string, id: string): Task | null {
    const row = this.rows.get(id);
    return row && row.projectId === projectId ? Task.restore(row) : null;
  }

  tasksOf(projectId: string): Row[] {
    return [...this.rows.values()].filter((r) => r.projectId === projectId);
  }

  nextNumber(projectId: string): number | null {
    if (this.countOf(projectId) >= MAX_PROJECT_TASKS) return null;
    const n = (this.counters.get(projectId) ?? 0) + 1;
    this.counters.set(projectId, n);
    return n;
  }

  countOf(projectId: string): number {
    return this.tasksOf(projectId).filter((r) => r.deletedAt === null).length;
  }

  insert(t: NewTask): void {
    this.rows.set(t.id, { ...t, values: { ...t.values }, parentId: null, archivedAt: null, deletedAt: null, createdAt: t.now, updatedAt: t.now });
  }

  write(task: Task, now: Date, touch: boolean): void {
    const row = this.rows.get(task.id);
    if (!row) return;
    const s = task.snapshot;
    Object.assign(row, { position: s.position, values: { ...s.values }, parentId: s.parentId, archivedAt: s.archivedAt, deletedAt: s.deletedAt });
    if (touch) row.updatedAt = now;
  }

  /**
   * The gap a move's place lies in, the moving task left out (as `board_rank_gap`): after the
   * anchor and the next task, before it and the one before, or after the last task.
   */
  gap(projectId: string, taskId: string, place: MovePlace): RankGap {
    const others = this.tasksOf(projectId)
      .filter((r) => r.id !== taskId)
      .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
      .map((r) => ({ id: r.id, position: r.position }));
    if (place.side === 'end') return { lo: others[others.length - 1] ?? null, hi: null };
    const anchor = others.find((r) => r.id === place.anchorId);
    if (!anchor) return { lo: null, hi: null };
    if (place.side === 'after') return { lo: anchor, hi: others.find((r) => r.position > anchor.position) ?? null };
    return { lo: [...others].reverse().find((r) => r.position < anchor.position) ?? null, hi: anchor };
  }

  /** Ranks in "C" order; deleted tasks keep theirs and count as neighbours. */
  ranked(projectId: string, except: string | null): string[] {
    return this.tasksOf(projectId)
      .filter((r) => r.id !== except)
      .map((r) => r.position)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

export class InMemoryTaskRepository extends TaskRepository {
  constructor(private readonly store: InMemoryTaskStore) {
    super();
  }

  async find(projectId: string, id: string): Promise<Task | null> {
    return this.store.find(projectId, id);
  }

  async editText(projectId: string, id: string, edit: { title?: string; description?: string }, now: Date) {
    const row = this.store.rows.get(id);
    if (!row || row.projectId !== projectId) throw new Error('editText of a task that is not there');
    const before = { title: row.title, description: row.description };
    const written = (edit.title !== undefined && edit.title !== row.title) || (edit.description !== undefined && edit.description !== row.description);
    if (written) Object.assign(row, { title: edit.title ?? row.title, description: edit.description ?? row.description, updatedAt: now });
    return { ...before, written };
  }

  async findManyForUpdate(projectId: string, ids: string[]): Promise<Task[]> {
    return [...ids]
      .sort()
      .map((id) => this.store.find(projectId, id))
      .filter((t): t is Task => t !== null && !t.isDeleted);
  }

  async nextNumber(projectId: string): Promise<number | null> {
    return this.store.nextNumber(projectId);
  }

  async taskCount(projectId: string): Promise<number> {
    return this.store.countOf(projectId);
  }

  async edgeRank(projectId: string, edge: 'top' | 'end'): Promise<string> {
    const ranks = this.store.ranked(projectId, null);
    return edge === 'end' ? rankBetween(ranks[ranks.length - 1] ?? null, null) : rankBetween(null, ranks[0] ?? null);
  }

  async insert(task: NewTask): Promise<void> {
    this.store.insert(task);
  }

  async save(task: Task, now: Date, touch = true): Promise<void> {
    this.store.write(task, now, touch);
  }

  async saveMany(projectId: string, tasks: readonly Task[], now: Date, touch: boolean): Promise<void> {
    if (tasks.some((t) => t.projectId !== projectId)) throw new Error('saveMany takes the tasks of one project');
    for (const task of tasks) this.store.write(task, now, touch);
  }

  async links(projectId: string): Promise<Link[]> {
    return this.store.links.filter((l) => this.store.rows.get(l.taskId)?.projectId === projectId);
  }

  async addLink(projectId: string, taskId: string, blockerId: string): Promise<boolean> {
    if (this.store.links.some((l) => l.taskId === taskId && l.blockerId === blockerId)) return false;
    this.store.links.push({ taskId, blockerId });
    return true;
  }

  async removeLink(projectId: string, taskId: string, blockerId: string): Promise<boolean> {
    const i = this.store.links.findIndex((l) => l.taskId === taskId && l.blockerId === blockerId);
    if (i < 0) return false;
    this.store.links.splice(i, 1);
    return true;
  }

  /** Nothing runs at once here: there is nothing to hold. */
  async holdWithParts(): Promise<void> {}

  async releasePartsWithParts(projectId: string, parentId: string): Promise<void> {
    const rows = this.store.tasksOf(projectId);
    for (const part of rows.filter((r) => r.parentId === parentId)) {
      if (rows.some((g) => g.parentId === part.id && g.deletedAt === null)) part.parentId = null;
    }
  }

  async hasParts(projectId: string, id: string): Promise<boolean> {
    return this.store.tasksOf(projectId).some((r) => r.parentId === id && r.deletedAt === null);
  }

  async idsInColumn(projectId: string, propertyId: string, value: unknown): Promise<string[]> {
    return this.store
      .tasksOf(projectId)
      .filter((r) => r.deletedAt === null && r.archivedAt === null && (value === null ? r.values[propertyId] === undefined : JSON.stringify(r.values[propertyId]) === JSON.stringify(value)))
      .map((r) => r.id);
  }

  async purgeDeletedBatch(): Promise<number> {
    return 0;
  }
}

/** The edge create: the fingerprint is the project's `version`; ranks are taken as `board_create_task` takes them. */
export class InMemoryTaskCreateRepository extends TaskCreateRepository {
  constructor(private readonly store: InMemoryTaskStore) {
    super();
  }

  async load(projectId: string): Promise<CreateContext | null> {
    const project = this.store.projects.get(projectId);
    if (!project) return null;
    const ranks = this.store.ranked(projectId, null);
    return {
      defs: project.defs,
      memberIds: new Set(project.members.keys()),
      defsFingerprint: String(project.version),
      key: project.key,
      doneWhen: project.doneWhen,
      first: ranks[0] ?? null,
      last: ranks[ranks.length - 1] ?? null,
    };
  }

  create(input: CreateInput): InMemoryStatement<CreateOutcome> {
    return new InMemoryStatement<CreateOutcome>(() => {
      const project = this.store.project(input.projectId);
      if (String(project.version) !== input.defsFingerprint) return { answer: { outcome: 'stale' }, landed: false };
      if (this.store.countOf(input.projectId) >= MAX_PROJECT_TASKS) return { answer: { outcome: 'full' }, landed: false };
      const ranks = this.store.ranked(input.projectId, null);
      const edge = input.atTop ? (ranks[0] ?? null) : (ranks[ranks.length - 1] ?? null);
      const position = input.ranks.find((r) => edge === null || (input.atTop ? r < edge : r > edge));
      if (position === undefined) return { answer: { outcome: 'moved', edge }, landed: false };
      const number = this.store.nextNumber(input.projectId) ?? 0;
      this.store.insert({ ...input, number, position });
      return { answer: { outcome: 'created', number, position }, landed: true };
    });
  }
}

/** The compare-and-set value write over the store: lands only if the values are still `expected` and what they name is still there. */
export class InMemoryTaskValueRepository extends TaskValueRepository {
  constructor(private readonly store: InMemoryTaskStore) {
    super();
  }

  async load(projectId: string, taskId: string): Promise<ValueWriteContext> {
    const project = this.store.project(projectId);
    const names = new Map<string, string>([...project.members, ...project.optionNames]);
    return { defs: project.defs, memberIds: new Set(project.members.keys()), names, task: this.store.find(projectId, taskId) };
  }

  writeIfUnchanged(input: ValueWrite): InMemoryStatement<boolean> {
    return new InMemoryStatement(() => {
      const t = input.task.snapshot;
      const row = this.store.rows.get(t.id);
      const project = this.store.project(t.projectId);
      const { propertyId, optionIds, memberIds } = input.refers;
      const def = project.defs.find((d) => d.id === propertyId);
      const there = !!def && optionIds.every((id) => def.optionIds.has(id)) && memberIds.every((id) => project.members.has(id));
      const landed = !!row && row.projectId === t.projectId && same(row.values, input.expected) && there;
      if (landed) this.store.write(input.task, input.now, true);
      return { answer: landed, landed };
    });
  }
}

const same = (a: Readonly<TaskValues>, b: Readonly<Record<string, unknown>>) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** `valueRefers` of a value of the project, for a spec's own compare-and-set calls. */
export { valueRefers };

/** Moves over the store, as `board_move_task` takes a rank: the first offer inside the gap as it is, or the gap when none fits. */
export class InMemoryTaskMoveRepository extends TaskMoveRepository {
  constructor(private readonly store: InMemoryTaskStore) {
    super();
  }

  async read(projectId: string, taskId: string, place: MovePlace): Promise<MoveContext> {
    const task = this.store.rows.get(taskId);
    const anchor = place.anchorId === null ? undefined : this.store.rows.get(place.anchorId);
    return {
      task: task && task.projectId === projectId ? { position: task.position } : null,
      anchor: anchor && anchor.projectId === projectId ? { deleted: anchor.deletedAt !== null } : null,
      gap: this.store.gap(projectId, taskId, place),
    };
  }

  move(input: MoveInput): InMemoryStatement<MoveOutcome> {
    return new InMemoryStatement(() => {
      const answer = this.take(input);
      return { answer, landed: answer.outcome === 'moved' };
    });
  }

  async moveInTransaction(input: MoveInput): Promise<MoveOutcome> {
    return this.take(input);
  }

  private take(input: MoveInput): MoveOutcome {
    const row = this.store.rows.get(input.taskId);
    if (!row || row.projectId !== input.projectId) return { outcome: 'gone' };
    const gap = this.store.gap(input.projectId, input.taskId, input.place);
    const rank = input.offers.find((r) => (gap.lo === null || r > gap.lo.position) && (gap.hi === null || r < gap.hi.position));
    if (rank === undefined) return { outcome: 'shifted', gap };
    if (rank === row.position) return { outcome: 'stayed', position: rank };
    row.position = rank;
    return { outcome: 'moved', position: rank };
  }
}
