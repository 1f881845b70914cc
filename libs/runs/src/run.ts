import { fail, MINUTE, readText } from '@board/kernel';
import { LinkSent, mergeLinks, readLinks, RunLink } from './links';
import { Answer, AnswerSent, Question, QuestionAsked, readAnswer, readQuestion } from './question';
import { growUsage, NO_USAGE, readUsage, Usage, UsageSent } from './usage';

export const OPEN_STATUSES = ['running', 'paused', 'waiting', 'handed_over'] as const;
export const CLOSING_STATUSES = ['done', 'failed', 'stopped', 'lost', 'taken_over'] as const;
export const REPORTED_STATUSES = ['running', 'paused', 'waiting', 'handed_over', 'done', 'failed', 'stopped', 'lost'] as const;
export type RunStatus = (typeof OPEN_STATUSES)[number] | (typeof CLOSING_STATUSES)[number];
export type ControlWord = 'pause' | 'resume' | 'stop' | 'take_over';
export const CONTROL_WORDS: readonly ControlWord[] = ['pause', 'resume', 'stop', 'take_over'];

export const GOAL_MAX = 200;
export const STEP_MAX = 200;
export const PLAN_MAX = 50;
export const LOG_LINE_MAX = 400;
export const LOG_READ = 40;
/** Lines kept per run: more than a read returns, so nothing a reader could ask for is lost. */
export const LOG_KEPT = 200;
export const LEASE_MS = 30 * MINUTE;
export const REPORT_FOR_MAX_MINUTES = 60;
/** The largest PostgreSQL `integer`, the column a step index lands in. */
export const STEP_INDEX_MAX = 2_147_483_647;

export interface Step {
  text: string;
  state: 'done' | 'active' | 'waiting';
}

export interface LogLine {
  at: string;
  text: string;
  by: { id: string; name: string } | null;
}

export interface RunProps {
  id: string;
  projectId: string;
  taskId: string;
  agentId: string | null;
  status: RunStatus;
  goal: string;
  step: string;
  steps: Step[];
  stepIndex: number | null;
  control: ControlWord | null;
  log: LogLine[];
  startedAt: Date;
  updatedAt: Date;
  reportDueAt: Date | null;
  beatAt: Date;
  endedAt: Date | null;
  /** The one question a waiting run asks (a new one replaces the last), with its answer once given. */
  question: Question | null;
  /** What the run produced, at most 20, in the order first sent. */
  links: RunLink[];
  /** The run's totals so far (tokens, cost in millionths, last model). */
  usage: Usage;
}

/** What a report grew, to be booked on the report's day. */
export type UsageIncrease = Omit<Usage, 'model'>;

/** The control word's line when the service pauses a run for the project's daily budget. */
export const BUDGET_PAUSE_LINE = "Paused: the project's daily budget is spent.";

export interface Person {
  id: string;
  name: string;
}

const isClosing = (s: string): boolean => (CLOSING_STATUSES as readonly string[]).includes(s);

/** Which control words a status answers (clears): paused answers pause, running resume, closing ones stop and pause. */
function answeredBy(status: RunStatus): ControlWord[] {
  if (status === 'paused') return ['pause'];
  if (status === 'running') return ['resume'];
  if (isClosing(status)) return ['stop', 'pause'];
  return [];
}

export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

/** A run's report as read: an absent field (or null) changes nothing. */
export interface RunReport {
  goal?: string;
  step?: string;
  steps?: string[];
  stepIndex?: number;
  log?: string;
  status?: ReportedStatus;
  /** Minutes until the next report. */
  reportFor?: number;
  question?: QuestionAsked;
  links?: LinkSent[];
  usage?: UsageSent;
}

const absent = (value: unknown): value is undefined | null => value === undefined || value === null;

/**
 * Each field of a report and its reader, in the order the contract checks them: the request's DTO
 * reads a report with these, field by field, and `readRunReport` reads a whole one alike.
 */
export const RUN_REPORT_FIELDS: { readonly [K in keyof RunReport]-?: (value: unknown) => RunReport[K] } = {
  goal: (value) => readText(value, 'goal', { max: GOAL_MAX, allowEmpty: true }),
  step: (value) => readText(value, 'step', { max: STEP_MAX, allowEmpty: true }),
  steps: (value) => (absent(value) ? undefined : readPlan(value)),
  // Stored in an integer column: a larger index is refused here rather than by PostgreSQL (a 500).
  stepIndex: (value) => {
    if (absent(value)) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > STEP_INDEX_MAX) fail('run.step_index');
    return value as number;
  },
  log: (value) => readText(value, 'log', { max: LOG_LINE_MAX }),
  status: (value) => {
    if (absent(value)) return undefined;
    if (value === 'taken_over') fail('run.take_over_by_person');
    if (!(REPORTED_STATUSES as readonly unknown[]).includes(value)) fail('run.status_invalid');
    return value as ReportedStatus;
  },
  reportFor: (value) => {
    if (absent(value)) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > REPORT_FOR_MAX_MINUTES) fail('run.report_for');
    return value as number;
  },
  question: (value) => (absent(value) ? undefined : readQuestion(value)),
  links: (value) => (absent(value) ? undefined : readLinks(value)),
  usage: (value) => (absent(value) ? undefined : readUsage(value)),
};

/** A claim as read: its goal, plan and first step (each may be absent). */
export type RunClaim = Pick<RunReport, 'goal' | 'steps' | 'step'>;

/** A claim's fields and their readers, in the order the contract checks them (a report's own). */
export const RUN_CLAIM_FIELDS = { goal: RUN_REPORT_FIELDS.goal, steps: RUN_REPORT_FIELDS.steps, step: RUN_REPORT_FIELDS.step };

/** Reads every field of `plain` with its reader, in order, first refusal first (what a DTO does field by field). */
function readFields<T>(fields: { readonly [K in keyof T]-?: (value: unknown) => T[K] }, plain: Record<string, unknown>): T {
  const read: Record<string, unknown> = {};
  for (const [key, reader] of Object.entries(fields)) {
    const value = (reader as (value: unknown) => unknown)(plain[key]);
    if (value !== undefined) read[key] = value;
  }
  return read as T;
}

/** A whole report read at once. */
export const readRunReport = (plain: Record<string, unknown>): RunReport => readFields<RunReport>(RUN_REPORT_FIELDS, plain);

/** A whole claim read at once. */
export const readRunClaim = (plain: Record<string, unknown>): RunClaim => readFields<RunClaim>(RUN_CLAIM_FIELDS, plain);

/** A plan: a list of at most PLAN_MAX texts, each trimmed and at most STEP_MAX characters. */
export function readPlan(value: unknown): string[] {
  if (!Array.isArray(value)) fail('run.steps_not_texts');
  const steps = value as unknown[];
  if (steps.length > PLAN_MAX) fail('run.plan_too_long');
  return steps.map((s) => {
    if (typeof s !== 'string') fail('run.steps_not_texts');
    const text = (s as string).trim();
    if ([...text].length > STEP_MAX) fail('run.step_too_long');
    return text;
  });
}

function planStates(texts: string[], index: number | null): Step[] {
  return texts.map((text, i) => ({
    text,
    state: index === null ? (i === 0 ? 'active' : 'waiting') : i < index ? 'done' : i === index ? 'active' : 'waiting',
  }));
}

/**
 * An agent's run on a task and its state machine. Reports stamp updatedAt and beatAt, beats
 * only beatAt; closing statuses stamp endedAt; a person's control word waits in `control`
 * until a status answers it.
 */
export class Run {
  private constructor(private props: RunProps) {}

  static restore(props: RunProps): Run {
    return new Run({ ...props, steps: [...props.steps], log: [...props.log], links: [...props.links] });
  }

  /** Opens a run with the claim as read (`RunClaim`): no goal is an empty one, no step the plan's first. */
  static claim(input: { id: string; projectId: string; taskId: string; agentId: string; body: RunClaim; now: Date }): Run {
    const goal = input.body.goal ?? '';
    const texts = input.body.steps ?? [];
    const step = input.body.step ?? texts[0] ?? '';
    const run = new Run({
      id: input.id,
      projectId: input.projectId,
      taskId: input.taskId,
      agentId: input.agentId,
      status: 'running',
      goal,
      step,
      steps: planStates(texts, texts.length > 0 ? 0 : null),
      stepIndex: texts.length > 0 ? 0 : null,
      control: null,
      log: [],
      startedAt: input.now,
      updatedAt: input.now,
      reportDueAt: null,
      beatAt: input.now,
      endedAt: null,
      question: null,
      links: [],
      usage: NO_USAGE,
    });
    run.addLog(`started: ${goal}`, null, input.now);
    return run;
  }

  get id(): string {
    return this.props.id;
  }
  get isOpen(): boolean {
    return this.props.endedAt === null;
  }
  get status(): RunStatus {
    return this.props.status;
  }
  get control(): ControlWord | null {
    return this.props.control;
  }
  get snapshot(): Readonly<RunProps> {
    return this.props;
  }

  /** A bare heartbeat: only beatAt moves. Answers the pending control word. */
  beat(agentId: string, now: Date): ControlWord | null {
    this.assertOwnOpen(agentId);
    this.props.beatAt = now;
    return this.props.control;
  }

  /**
   * A report from the owning agent, read field by field before (`RUN_REPORT_FIELDS`): the rules
   * across fields are checked before anything changes, so a refused report leaves the run as it
   * was. Answers whether it closed the run and what its usage grew by.
   */
  report(agentId: string, report: RunReport, now: Date): { closed: boolean; increase: UsageIncrease | null } {
    this.assertOwnOpen(agentId);
    const { goal, step, steps: texts, stepIndex, log, status, reportFor, question: asked, links: sentLinks, usage: sentUsage } = report;
    if (status === 'handed_over' && !step) fail('run.hand_over_step');
    if (status === 'lost' && (this.props.status === 'waiting' || this.props.status === 'handed_over')) fail('run.waits');
    if (asked && status !== 'waiting') fail('run.question_needs_waiting');
    const links = sentLinks ? mergeLinks(this.props.links, sentLinks, now.toISOString()) : undefined;
    const grown = sentUsage ? growUsage(this.props.usage, sentUsage) : undefined;

    if (goal !== undefined) this.props.goal = goal;
    if (texts !== undefined || stepIndex !== undefined) {
      const plan = texts ?? this.props.steps.map((s) => s.text);
      const index = stepIndex ?? (texts !== undefined ? null : this.props.stepIndex);
      this.props.stepIndex = index;
      this.props.steps = planStates(plan, index);
    }
    if (step !== undefined) this.props.step = step;
    if (log) this.addLog(log, null, now);
    else if (step) this.addLog(step, null, now);
    if (asked) {
      this.props.question = { id: globalThis.crypto.randomUUID(), ...asked, askedAt: now.toISOString(), answer: null };
      this.addLog(`asked: ${asked.text}`, null, now);
    }
    if (links) this.props.links = links;
    if (grown) this.props.usage = grown.usage;
    this.props.updatedAt = now;
    this.props.beatAt = now;
    this.props.reportDueAt = reportFor !== undefined ? new Date(now.getTime() + reportFor * MINUTE) : null;
    const increase = grown ? grown.increase : null;
    if (status) return { closed: this.enter(status, now), increase };
    return { closed: false, increase };
  }

  /**
   * A person answers the run's open question: once, while the run waits. The agent is asked to
   * resume (unless another word waits) and reads the answer on its next report, beat or read.
   */
  answer(sent: AnswerSent, by: Person, now: Date): Answer {
    const question = this.props.question;
    if (!this.isOpen || this.props.status !== 'waiting' || !question || question.answer) fail('run.no_open_question');
    const { text, choices } = readAnswer(question, sent);
    const answer: Answer = { text, choices, by: { id: by.id, name: by.name }, at: now.toISOString() };
    this.props.question = { ...question, answer };
    this.props.control ??= 'resume';
    this.addLog(`${by.name} answered: ${text}`, by, now);
    return answer;
  }

  /**
   * The project's daily budget is spent: a running run with no word pending is asked to pause,
   * the one control word no person writes. Answers whether it was asked.
   */
  pauseForBudget(now: Date): boolean {
    if (!this.isOpen || this.props.status !== 'running' || this.props.control !== null) return false;
    this.props.control = 'pause';
    this.addLog(BUDGET_PAUSE_LINE, null, now);
    return true;
  }

  /** A person's request. take_over ends the run at once; the others wait for the agent to read them. */
  command(word: unknown, by: Person, now: Date): { closed: boolean } {
    if (typeof word !== 'string' || !(CONTROL_WORDS as readonly string[]).includes(word)) fail('run.control_invalid');
    if (!this.isOpen) fail('run.over');
    if (word === 'take_over') {
      this.addLog(`${by.name} took the task over.`, by, now);
      this.enter('taken_over', now);
      this.props.control = null;
      return { closed: true };
    }
    this.props.control = word as ControlWord;
    this.addLog(`${by.name} asked to ${word}.`, by, now);
    return { closed: false };
  }

  /** Past its lease (30 minutes since the last report, or past reportDueAt) a running or paused run is lost. */
  isOverdue(now: Date): boolean {
    if (!this.isOpen || (this.props.status !== 'running' && this.props.status !== 'paused')) return false;
    const due = this.props.reportDueAt ?? new Date(this.props.updatedAt.getTime() + LEASE_MS);
    return now.getTime() > due.getTime();
  }

  expire(now: Date): boolean {
    if (!this.isOverdue(now)) return false;
    this.addLog('lost: no report in time.', null, now);
    this.enter('lost', now);
    return true;
  }

  /** A person answered a waiting run in a comment: the agent is asked to resume (unless another word waits). */
  answeredInComment(by: Person, now: Date): boolean {
    if (!this.isOpen || this.props.status !== 'waiting') return false;
    this.props.control ??= 'resume';
    this.addLog(`${by.name} answered in a comment.`, by, now);
    return true;
  }

  private enter(status: RunStatus, now: Date): boolean {
    this.props.status = status;
    const answered = answeredBy(status);
    if (this.props.control && answered.includes(this.props.control)) this.props.control = null;
    if (isClosing(status)) {
      this.props.endedAt = now;
      return true;
    }
    return false;
  }

  /** The gate of a report or a beat, checked before their fields: the owning agent, an open run. */
  assertOwnOpen(agentId: string): void {
    if (this.props.agentId !== agentId) fail('run.other_agent');
    if (!this.isOpen) fail('run.closed');
  }

  private addLog(text: string, by: Person | null, now: Date): void {
    this.props.log.push({ at: now.toISOString(), text, by: by ? { id: by.id, name: by.name } : null });
    if (this.props.log.length > LOG_KEPT) this.props.log = this.props.log.slice(-LOG_KEPT);
  }
}

/** Derived card fields: progress and the newest log line. */
export function runProgress(run: Pick<RunProps, 'steps' | 'log'>): { stepsTotal: number; stepsDone: number; lastLog: string } {
  return {
    stepsTotal: run.steps.length,
    stepsDone: run.steps.filter((s) => s.state === 'done').length,
    lastLog: run.log.length > 0 ? run.log[run.log.length - 1].text : '',
  };
}
