import { fail, fieldLabel, InTurn, inTurn, parseId, readInTurn, readText } from '@board/kernel';
import type { ProjectTemplate } from './project-template';

export interface DoneWhen {
  propertyId: string;
  optionIds: string[];
}

export interface ProjectProps {
  id: string;
  name: string;
  key: string;
  ownerId: string;
  doneWhen: DoneWhen | null;
  releases: boolean;
  sprints: boolean;
  rulesText: string;
  rulesUpdatedAt: Date | null;
  createdAt: Date;
  /** The agents' cost a UTC day may reach, in millionths of the team's currency; null: no budget. */
  dailyBudgetMicros: number | null;
}

/** 10^15, as for a run's usage counts: past any real budget, exact in a double and a bigint. */
export const DAILY_BUDGET_MAX = 1_000_000_000_000_000;

/** A daily budget: a whole number above zero, or null for none. */
export function readDailyBudget(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > DAILY_BUDGET_MAX) fail('project.budget_invalid');
  return value;
}

/** `releases` or `sprints` on or off: a boolean, else `Releases is true or false.` */
export function readProjectFlag(flag: ProjectFlag, value: unknown): boolean {
  if (typeof value !== 'boolean') fail('input.boolean', { field: fieldLabel(flag) });
  return value;
}

export type ProjectFlag = 'releases' | 'sprints';

/**
 * What a project's done-when names, as the request DTO read it: the property's id (its shape is
 * refused first), and its options. The property is the project's stored state (`checkDoneWhen`
 * judges it once loaded), and the contract refuses the options' shape only after it, so their
 * reading waits its turn.
 */
export interface DoneWhenAsked {
  propertyId: string;
  optionIds: InTurn<string[]>;
}

/** A done-when as sent: null (none), or `{ propertyId, optionIds }`; other shapes are refused. */
export function readDoneWhen(value: unknown): DoneWhenAsked | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) fail('project.done_when_invalid');
  const v: { propertyId?: unknown; optionIds?: unknown } = value;
  const propertyId = parseId(v.propertyId, 'property');
  return { propertyId, optionIds: readInTurn(() => readDoneOptions(v.optionIds)) };
}

function readDoneOptions(value: unknown): string[] {
  if (!Array.isArray(value)) fail('project.done_when_invalid');
  return [...new Set(value.map((o: unknown) => parseId(o, 'option')))];
}

/**
 * A done-when against the property it names, as stored: a select, and options of its own. A
 * property that is not a select (an iteration, a text…) cannot say done.
 */
export function checkDoneWhen(asked: DoneWhenAsked, property: { type: string; optionIds: readonly string[] }): DoneWhen {
  if (property.type !== 'select') fail('project.done_when_invalid');
  const optionIds = inTurn(asked.optionIds);
  if (optionIds.some((o) => !property.optionIds.includes(o))) fail('project.done_when_invalid');
  return { propertyId: asked.propertyId, optionIds };
}

/** What a new project asks for, as its request DTO read it. */
export interface ProjectCreate {
  name: string;
  /** A key sent (upper-cased), or null: one is derived from the name. */
  key: string | null;
  template: ProjectTemplate;
}

/**
 * A change of a project's settings, as its request DTO read it; what is absent stays. The contract
 * checks the done-when and the flags after the key's clash, and the done-when against the project's
 * properties: their refusals wait their turn (`InTurn`).
 */
export interface ProjectChange {
  name?: string;
  key?: string;
  doneWhen?: InTurn<DoneWhenAsked | null>;
  releases?: InTurn<boolean>;
  sprints?: InTurn<boolean>;
  dailyBudgetMicros?: number | null;
}

export const RULES_MAX = 20000;

/** The agent rules: text, empty allowed, at most 20000 characters. */
export const readRulesText = (value: unknown): string => readText(value, 'text', { max: RULES_MAX, allowEmpty: true, required: true });

export class Project {
  private constructor(private props: ProjectProps) {}

  static restore(props: ProjectProps): Project {
    return new Project({ ...props });
  }

  /** A new project: its name as `readProjectName` answered it, its key as chosen. */
  static create(input: { id: string; name: string; key: string; ownerId: string; now: Date }): Project {
    return new Project({
      id: input.id,
      name: input.name,
      key: input.key,
      ownerId: input.ownerId,
      doneWhen: null,
      releases: false,
      sprints: false,
      rulesText: '',
      rulesUpdatedAt: null,
      createdAt: input.now,
      dailyBudgetMicros: null,
    });
  }

  rename(name: string): void {
    this.props.name = name;
  }

  changeKey(key: string): string {
    return (this.props.key = key);
  }

  setDailyBudget(micros: number | null): void {
    this.props.dailyBudgetMicros = micros;
  }

  setDoneWhen(doneWhen: DoneWhen | null): void {
    this.props.doneWhen = doneWhen;
  }

  setFlag(flag: ProjectFlag, on: boolean): boolean {
    const changed = this.props[flag] !== on;
    this.props[flag] = on;
    return changed;
  }

  handOver(toUserId: string): string {
    const previous = this.props.ownerId;
    this.props.ownerId = toUserId;
    return previous;
  }

  /** Agent rules: free text; its hash is the SHA-256 of the text. Answers whether it changed. */
  writeRules(text: string, now: Date): boolean {
    const changed = text !== this.props.rulesText || this.props.rulesUpdatedAt === null;
    this.props.rulesText = text;
    this.props.rulesUpdatedAt = now;
    return changed;
  }

  get id(): string {
    return this.props.id;
  }
  get key(): string {
    return this.props.key;
  }
  get ownerId(): string {
    return this.props.ownerId;
  }
  get snapshot(): Readonly<ProjectProps> {
    return this.props;
  }
}
