import { Run, RunProps } from '@board/runs';
import { raw } from '../sql';

/** `runs`: every column the aggregate reads and writes. */
export const RUN_COLUMNS = raw(
  'id, project_id, task_id, agent_id, status, goal, step, steps, step_index, control, log, started_at, updated_at, report_due_at, beat_at, ended_at, ' +
    'question, links, input_tokens, output_tokens, cost_micros, model',
);

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
