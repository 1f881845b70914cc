import { StatementWrite } from '@board/kernel';
import { PropertyDef, TaskValues } from '@board/properties';
import { Link } from './links';
import { DoneWhen } from './over';
import { Task, TaskProps } from './task';

/** Where a write stands in the rank order: the keys on either side of the chosen spot. */
export type Placement = { afterId: string } | { beforeId: string } | 'top' | 'end';

/** A task to insert, numbered and ranked already. */
export type NewTask = Pick<TaskProps, 'id' | 'projectId' | 'number' | 'title' | 'description' | 'position' | 'values'> & { createdBy: string; now: Date };

/** Storage of tasks. Every statement filters by project, so the storage can be sharded by project. */
export abstract class TaskRepository {
  /** A task of the project (deleted ones too); `lock` holds it until the transaction ends. */
  abstract find(projectId: string, id: string, lock?: boolean): Promise<Task | null>;
  /** Compare and write title and description at once; answers what was there before and whether it wrote. */
  abstract editText(projectId: string, id: string, edit: { title?: string; description?: string }, now: Date): Promise<{ title: string; description: string; written: boolean }>;
  /** Live or archived tasks of the project among `ids`, held until the transaction ends (locked in id order, so two bulk writes cannot deadlock). */
  abstract findManyForUpdate(projectId: string, ids: string[]): Promise<Task[]>;
  /**
   * The next task number, counting the new task in the project's tasks; the counter never goes
   * back, so a number is never handed out twice. Null, with nothing taken, when the project holds
   * MAX_PROJECT_TASKS already.
   */
  abstract nextNumber(projectId: string): Promise<number | null>;
  /** How many tasks the project holds, live and archived (not those in the bin). */
  abstract taskCount(projectId: string): Promise<number>;
  /**
   * A rank past the first or the last of the project's tasks (deleted ones keep their rank for a
   * restore, so they count too). Call under the project lock: the two ends of the order are the
   * lock's (`TaskMoveRepository`), a place between two tasks is not.
   */
  abstract edgeRank(projectId: string, edge: 'top' | 'end'): Promise<string>;
  abstract insert(task: NewTask): Promise<void>;
  /** Writes the aggregate's state back; `touch` stamps updated_at. */
  abstract save(task: Task, now: Date, touch?: boolean): Promise<void>;
  /** `save` for many tasks of one project at once. */
  abstract saveMany(projectId: string, tasks: readonly Task[], now: Date, touch: boolean): Promise<void>;
  /** Every blocker link of the project (the cycle check reads them under the project lock). */
  abstract links(projectId: string): Promise<Link[]>;
  /** Answers false when the link was there already. */
  abstract addLink(projectId: string, taskId: string, blockerId: string): Promise<boolean>;
  /** Answers false when there was no such link. */
  abstract removeLink(projectId: string, taskId: string, blockerId: string): Promise<boolean>;
  /**
   * Holds the task and every part of it (deleted ones too) until the transaction ends, taken in id
   * order, the order a move takes its rows in: a restore that then writes the task and lets go of
   * some of its parts cannot wait on a move that waits on it.
   */
  abstract holdWithParts(projectId: string, id: string): Promise<void>;
  /** Lets go of the parts of `parentId` that have parts of their own (restore keeps parts one level deep). */
  abstract releasePartsWithParts(projectId: string, parentId: string): Promise<void>;
  /** Does the task have parts that are not deleted? */
  abstract hasParts(projectId: string, id: string): Promise<boolean>;
  /** Live tasks of a column: holding `value` for the property, or nothing when value is null. */
  abstract idsInColumn(projectId: string, propertyId: string, value: unknown): Promise<string[]>;
  /**
   * Removes one batch of deleted tasks past their window for good, with everything they own, on
   * its own (one sweep at a time across instances). Answers how many tasks went (0 when none is left).
   */
  abstract purgeDeletedBatch(before: Date, limit?: number): Promise<number>;
}

/** What a create at the top or the end checks and places against, read at once without locks. */
export interface CreateContext {
  defs: PropertyDef[];
  memberIds: Set<string>;
  /** Fingerprint of the properties, options and members the values are checked against. */
  defsFingerprint: string;
  key: string;
  doneWhen: DoneWhen | null;
  /** Lowest and highest rank of the project's tasks (deleted ones too), null when it has none. */
  first: string | null;
  last: string | null;
}

export type CreateOutcome =
  | { outcome: 'created'; number: number; position: string }
  /** The properties, options or members changed since the read: check the values again. */
  | { outcome: 'stale' }
  /** Other tasks took every offered rank: `edge` is the edge now. */
  | { outcome: 'moved'; edge: string | null }
  /** The project holds MAX_PROJECT_TASKS already: nothing was written. */
  | { outcome: 'full' };

export interface CreateInput {
  projectId: string;
  id: string;
  title: string;
  description: string;
  values: TaskValues;
  createdBy: string;
  now: Date;
  atTop: boolean;
  /** Ranks to choose from, nearest to the edge first. */
  ranks: string[];
  defsFingerprint: string;
}

/**
 * Task create at the top or the end without a transaction of round trips: `load` reads what the
 * values are checked against; `create` is one statement (run by `UnitOfWork.writeStatement`, with
 * the write's events) that numbers, ranks and inserts the task, unless the definitions changed
 * since (`stale`) or other tasks took every offered rank (`moved`), or the project is full (`full`).
 */
export abstract class TaskCreateRepository {
  /** Null when there is no such project. */
  abstract load(projectId: string): Promise<CreateContext | null>;
  abstract create(input: CreateInput): StatementWrite<CreateOutcome>;
}

/** Everything a value write checks against, read at once without locks. */
export interface ValueWriteContext {
  defs: PropertyDef[];
  memberIds: Set<string>;
  /** Option names by id and member names by user id: what a feed line shows. */
  names: Map<string, string>;
  /** The task (deleted ones too, as `TaskRepository.find`), or null. */
  task: Task | null;
}

export interface ValueWrite {
  task: Task;
  expected: Record<string, unknown>;
  now: Date;
  /** What the written value names, checked again at the write: its property, options and people. */
  refers: { propertyId: string; optionIds: string[]; memberIds: string[] };
}

/**
 * The one-value write without a transaction of round trips: read the task and what its values are
 * checked against, decide in the aggregate, then write only if the task's values are still the
 * ones read (compare and set). A write that lost the race reads again.
 */
export abstract class TaskValueRepository {
  abstract load(projectId: string, taskId: string): Promise<ValueWriteContext>;
  /**
   * The statement that writes the task's values if they are still `expected` (run by
   * `UnitOfWork.writeStatement`, whose events land with it or not at all). Answers false when the
   * values had changed meanwhile (nothing was written).
   */
  abstract writeIfUnchanged(input: ValueWrite): StatementWrite<boolean>;
}

/** A task beside a gap in the rank order: its id and rank. */
export interface RankNeighbour {
  id: string;
  position: string;
}

/** The two tasks a place lies between (deleted ones count: they keep their rank); null is an open end. */
export interface RankGap {
  lo: RankNeighbour | null;
  hi: RankNeighbour | null;
}

/** Where a move puts its task: straight after or before another task, or at the end. */
export type MovePlace = { side: 'after' | 'before'; anchorId: string } | { side: 'end'; anchorId: null };

/** What a move reads before it writes, without locks. */
export interface MoveContext {
  /** The moving task's rank, or null when there is no such task (deleted ones are there). */
  task: { position: string } | null;
  /** The anchor (null when there is none, or for the end): whether it is in the bin. */
  anchor: { deleted: boolean } | null;
  /** The gap the place lies in now, the moving task left out. */
  gap: RankGap;
}

export interface MoveInput {
  projectId: string;
  taskId: string;
  place: MovePlace;
  /** Ranks for the gap the place was read in, the one to take first first (`moveOffers`). */
  offers: string[];
}

export type MoveOutcome =
  /** The task took `position` (`stayed`: it held that rank already, nothing was written). */
  | { outcome: 'moved' | 'stayed'; position: string }
  /** The gap is another one now and no offer fits it: offer again for `gap`. Nothing was written. */
  | { outcome: 'shifted'; gap: RankGap }
  /** The task or the anchor is not there any more: read again. Nothing was written. */
  | { outcome: 'gone' };

/**
 * Moves without the project lock. A move holds only what its place needs: the task's row and the
 * rows of the two tasks on either side of the gap it goes into, taken together in id order, and
 * checked after they are held to be still side by side at the ranks read; only a place at either
 * end of the order, which creates and imports append to under the project lock, takes that lock
 * too. So two moves into one gap take turns, and moves elsewhere on the board do not wait for each
 * other. The gap the offers were made for can be gone by then (another move landed in it): the
 * statement takes the first offered rank that fits the gap as it is, or answers `shifted` with it.
 */
export abstract class TaskMoveRepository {
  /** The moving task, the anchor and the gap, as they are now (no locks). */
  abstract read(projectId: string, taskId: string, place: MovePlace): Promise<MoveContext>;
  /** The move as one statement (run by `UnitOfWork.writeStatement`; its events land when it `moved`). */
  abstract move(input: MoveInput): StatementWrite<MoveOutcome>;
  /** The same move inside the caller's open transaction (a move with values, a create placed after a task). */
  abstract moveInTransaction(input: MoveInput): Promise<MoveOutcome>;
}
