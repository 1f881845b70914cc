import { changesData, SelectChanges, selectChanges } from '@board/charts';
import { ActivityKind, ActivityLine, fail, fieldLabel } from '@board/kernel';
import { clearedValue, dropHiddenValues, DroppedValue, OptionRecord, PropertyDef, TaskValues } from '@board/properties';
import { DoneWhen, isOver, Task } from '@board/tasks';

/** What happens to the tasks of a shipped option that are not over. */
export const SHIP_RESTS = ['next', 'leave', 'clear'] as const;
export type ShipRest = (typeof SHIP_RESTS)[number];

/** What a ship asks for, as its request DTO read it (`readShipRest`, `readShipStrays`). */
export interface ShipRequest {
  rest: ShipRest;
  /** A release also takes along the over tasks that are in no release. */
  strays: boolean;
}

/** Where the rest of a ship goes: `next`, `leave` or `clear`. */
export function readShipRest(rest: unknown): ShipRest {
  if (typeof rest !== 'string' || !(SHIP_RESTS as readonly string[]).includes(rest)) fail('ship.rest_invalid');
  return rest as ShipRest;
}

/** Whether a release takes the strays along (absent or null: no). */
export function readShipStrays(value: unknown): boolean {
  const strays = value ?? false;
  if (typeof strays !== 'boolean') fail('input.boolean', { field: fieldLabel('strays') });
  return strays;
}

/** An option of a dated select is a release, an option of an iteration a sprint; nothing else ships. */
export type ShipKind = 'release' | 'sprint';

export interface ShipTarget {
  option: OptionRecord;
  property: { type: string; config: { dated?: unknown } };
  /** Every option of the property in display order, the shipped one included. */
  siblings: readonly OptionRecord[];
  project: { releases: boolean; sprints: boolean };
}

/**
 * Whether the option may ship, and the option the rest goes to (`next` only): the first open
 * option after it in option order, shipped ones skipped.
 */
export function checkShip(target: ShipTarget, request: ShipRequest): { kind: ShipKind; next: OptionRecord | null } {
  const { option, property, project } = target;
  const kind: ShipKind | null =
    property.type === 'iteration' ? 'sprint' : property.type === 'select' && property.config.dated === true ? 'release' : null;
  // A plain option carries no target date at all.
  if (kind === null) return fail('ship.no_target');
  if (kind === 'release' && !project.releases) fail('ship.releases_off');
  if (kind === 'sprint' && !project.sprints) fail('ship.sprints_off');
  if (option.shippedAt) fail('ship.already_shipped', { option: option.name, day: option.shippedAt });
  if (!option.targetOn) fail('ship.no_target');
  const at = target.siblings.findIndex((o) => o.id === option.id);
  const next = target.siblings.slice(at + 1).find((o) => !o.shippedAt) ?? null;
  if (request.rest === 'next' && !next) fail('ship.last_option', { option: option.name });
  return { kind, next: request.rest === 'next' ? next : null };
}

/** The UTC day of a moment, `YYYY-MM-DD`: the day an option ships. */
export const shipDay = (now: Date): string => now.toISOString().slice(0, 10);

export interface ShipInput {
  projectId: string;
  actorId: string | null;
  shipId: string;
  now: Date;
  kind: ShipKind;
  request: ShipRequest;
  option: OptionRecord;
  next: OptionRecord | null;
  /** The option's property, as the value rules know it. */
  property: PropertyDef;
  /** Every property of the project: a changed value may hide others (`when` rules). */
  defs: readonly PropertyDef[];
  doneWhen: DoneWhen | null;
  /** Live and archived tasks holding the option, and (for strays) the live over tasks in no release; locked by the caller. */
  tasks: readonly Task[];
}

export interface ShipPlan {
  /** Tasks to write back (archived, moved or cleared, taken). */
  changed: Task[];
  /** Feed lines, all carrying the ship's id, in rank order of their tasks. */
  lines: ActivityLine[];
  /** Tasks that ship with the option: the over ones holding it, archived ones included, and the strays taken. */
  shipped: string[];
  archived: number;
  moved: number;
  taken: number;
}

/**
 * What a ship does to each task, in memory (nothing written): over tasks holding the option are
 * archived; the rest go to the next option, stay or lose the value; a release with `strays` first
 * gives the over tasks in no release the option, then archives them. A changed value runs the
 * `when` rules like any value write, and its line lists what they dropped.
 */
export function planShip(input: ShipInput): ShipPlan {
  const { option, next, property, request, now } = input;
  const plan: ShipPlan = { changed: [], lines: [], shipped: [], archived: 0, moved: 0, taken: 0 };
  const line = (task: Task, kind: ActivityKind, data: Record<string, unknown>): void => {
    plan.lines.push({ projectId: input.projectId, taskId: task.id, actorId: input.actorId, kind, data: { ...data, shipId: input.shipId } });
  };
  const setValue = (task: Task, target: OptionRecord | null): void => {
    const values: TaskValues = { ...task.values };
    if (target) values[property.id] = target.id;
    else delete values[property.id];
    const { values: kept, dropped } = dropHiddenValues(input.defs, values);
    // Charts follow selects by the line's `changes`: the shipped option's property and any select a `when` rule dropped.
    const changes = selectChanges(task.values, kept, input.defs);
    task.replaceValues(kept);
    line(task, 'value', valueData(property, target, dropped, changes));
  };
  const ordered = [...input.tasks].sort((a, b) => (a.snapshot.position < b.snapshot.position ? -1 : a.snapshot.position > b.snapshot.position ? 1 : a.id < b.id ? -1 : 1));
  for (const task of ordered) {
    if (task.isDeleted) continue;
    const over = isOver(task.values, input.doneWhen);
    const holds = task.values[property.id] === option.id;
    if (!holds) {
      // A stray: only a release takes one, only a live task that is over and in no release.
      if (input.kind !== 'release' || !request.strays || !over || task.isArchived || hasValue(task.values[property.id])) continue;
      setValue(task, option);
      if (task.archive(now)) line(task, 'archive', { action: 'archived' });
      plan.changed.push(task);
      plan.shipped.push(task.id);
      plan.taken++;
      plan.archived++;
      continue;
    }
    if (over) {
      plan.shipped.push(task.id);
      if (task.archive(now)) {
        line(task, 'archive', { action: 'archived' });
        plan.changed.push(task);
        plan.archived++;
      }
      continue;
    }
    // Not over: an archived one is left as it is; a live one follows `rest`.
    if (task.isArchived || request.rest === 'leave') continue;
    setValue(task, request.rest === 'next' ? next : null);
    plan.changed.push(task);
    plan.moved++;
  }
  return plan;
}

/** Which webhook kinds a ship's one ring may carry, in order of preference: archive first, value when that is all it wrote. */
export function shipRingKinds(lines: readonly ActivityLine[]): ActivityKind[] {
  const kinds = new Set(lines.map((l) => l.kind));
  return (['archive', 'value'] as const).filter((k) => kinds.has(k));
}

const hasValue = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** A `value` line as a value write leaves it: property and value names, the selects it changed, plus what a hiding write dropped. */
function valueData(property: PropertyDef, target: OptionRecord | null, dropped: readonly DroppedValue[], changes: SelectChanges): Record<string, unknown> {
  const data: Record<string, unknown> = { property: property.name, value: target ? target.name : clearedValue(property.type), ...changesData(changes) };
  if (dropped.length > 0) {
    data.dropped = dropped.map((d) => d.name);
    data.propertyIds = dropped.map((d) => d.propertyId);
    data.hidBy = property.type === 'select' && target ? target.id : null;
  }
  return data;
}
