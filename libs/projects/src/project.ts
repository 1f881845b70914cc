import { fail, fieldLabel, readText } from '@board/kernel';
import { readProjectKey, readProjectName } from './project-key';

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

export const RULES_MAX = 20000;

/** The agent rules: text, empty allowed, at most 20000 characters. */
export const readRulesText = (value: unknown): string => readText(value, 'text', { max: RULES_MAX, allowEmpty: true, required: true });

export class Project {
  private constructor(private props: ProjectProps) {}

  static restore(props: ProjectProps): Project {
    return new Project({ ...props });
  }

  static create(input: { id: string; name: unknown; key: string; ownerId: string; now: Date }): Project {
    return new Project({
      id: input.id,
      name: readProjectName(input.name, true),
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

  rename(value: unknown): void {
    const name = readProjectName(value, true);
    if (name !== undefined) this.props.name = name;
  }

  changeKey(value: unknown): string {
    return (this.props.key = readProjectKey(value));
  }

  setDailyBudget(value: unknown): void {
    this.props.dailyBudgetMicros = readDailyBudget(value);
  }

  setDoneWhen(doneWhen: DoneWhen | null): void {
    this.props.doneWhen = doneWhen;
  }

  setFlag(flag: 'releases' | 'sprints', value: unknown): boolean {
    if (typeof value !== 'boolean') fail('input.boolean', { field: fieldLabel(flag) });
    const changed = this.props[flag] !== value;
    this.props[flag] = value as boolean;
    return changed;
  }

  handOver(toUserId: string): string {
    const previous = this.props.ownerId;
    this.props.ownerId = toUserId;
    return previous;
  }

  /** Agent rules: free text; its hash is the SHA-256 of the text. Answers whether it changed. */
  writeRules(value: unknown, now: Date): boolean {
    const text = readRulesText(value);
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
