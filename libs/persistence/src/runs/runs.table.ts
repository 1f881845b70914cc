import { Run, RunProps } from '@board/runs';
import { joinSql, raw, Sql, sql } from '../sql';

/** `runs`: every column the aggregate reads and writes. */
export const RUN_COLUMNS = raw(
  'id, project_id, task_id, agent_id, status, goal, step, steps, step_index, control, log, started_at, updated_at, report_due_at, beat_at, ended_at, ' +
    'question, links, input_tokens, output_tokens, cost_micros, model',
);

/** What a save writes of the aggregate, column by column: every UPDATE of a whole run takes it from here. */
export function runWrites(run: Run) {
  const r = run.snapshot;
  return {
    status: r.status,
    goal: r.goal,
    step: r.step,
    steps: JSON.stringify(r.steps),
    step_index: r.stepIndex,
    control: r.control,
    log: JSON.stringify(r.log),
    updated_at: r.updatedAt,
    report_due_at: r.reportDueAt,
    beat_at: r.beatAt,
    ended_at: r.endedAt,
    question: r.question ? JSON.stringify(r.question) : null,
    links: JSON.stringify(r.links),
    input_tokens: r.usage.inputTokens,
    output_tokens: r.usage.outputTokens,
    cost_micros: r.usage.costMicros,
    model: r.usage.model,
  };
}

export type RunWriteColumn = keyof ReturnType<typeof runWrites>;

const RUN_WRITE_COLUMNS: readonly RunWriteColumn[] = [
  'status', 'goal', 'step', 'steps', 'step_index', 'control', 'log', 'updated_at', 'report_due_at', 'beat_at', 'ended_at',
  'question', 'links', 'input_tokens', 'output_tokens', 'cost_micros', 'model',
];

/** `status = …, goal = …, …`: each written column with its value, a parameter or a statement's slot. */
export function runSetList(value: (column: RunWriteColumn) => unknown): Sql {
  return joinSql(RUN_WRITE_COLUMNS.map((c) => (c === 'question' ? sql`question = ${value(c)}::jsonb` : sql`${raw(c)} = ${value(c)}`)));
}

export interface RunRow {
  id: string;
  project_id: string;
  task_id: string;
  agent_id: string | null;
  status: RunProps['status'];
  goal: string;
  step: string;
  steps: RunProps['steps'];
  step_index: number | null;
  control: RunProps['control'];
  log: RunProps['log'];
  started_at: Date;
  updated_at: Date;
  report_due_at: Date | null;
  beat_at: Date;
  ended_at: Date | null;
  question: RunProps['question'];
  links: RunProps['links'];
  /** bigint columns: pg hands them over as text (at most 10^15, exact as a number). */
  input_tokens: string;
  output_tokens: string;
  cost_micros: string;
  model: string | null;
}

export const toRun = (r: RunRow): Run =>
  Run.restore({
    id: r.id,
    projectId: r.project_id,
    taskId: r.task_id,
    agentId: r.agent_id,
    status: r.status,
    goal: r.goal,
    step: r.step,
    steps: r.steps ?? [],
    stepIndex: r.step_index,
    control: r.control,
    log: r.log ?? [],
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    reportDueAt: r.report_due_at,
    beatAt: r.beat_at,
    endedAt: r.ended_at,
    question: r.question,
    links: r.links ?? [],
    usage: { inputTokens: Number(r.input_tokens), outputTokens: Number(r.output_tokens), costMicros: Number(r.cost_micros), model: r.model },
  });
