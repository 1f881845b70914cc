import {
  CONTROL_WORDS, type ControlWord, GOAL_MAX, LOG_LINE_MAX, PLAN_MAX, readPlan, REPORT_FOR_MAX_MINUTES, REPORTED_STATUSES, STEP_INDEX_MAX, STEP_MAX,
} from '@board/runs';
import { FieldRule, IdField, OneOf, Refusal, refusalOf, TextField } from '../http/dto/field-rules';

/** A plan of steps: absent or null means none; else a list of texts (`readPlan`'s refusals). */
const PlanField = (): PropertyDecorator =>
  FieldRule('plan', (value) => (value === undefined || value === null ? null : refusalOf(() => readPlan(value))), {
    schema: { type: ['array', 'null'], maxItems: PLAN_MAX, items: { type: 'string', maxLength: STEP_MAX }, description: 'The plan: step texts, trimmed.' },
  });

/** POST /tasks/:taskId/run, fields in the order the claim checks them. */
export class ClaimRunBody {
  @TextField('goal', { max: GOAL_MAX, allowEmpty: true })
  goal?: string | null;

  @PlanField()
  steps?: string[] | null;

  @TextField('step', { max: STEP_MAX, allowEmpty: true })
  step?: string | null;
}

/** Absent or null passes; else `check`. */
const unlessAbsent =
  (check: (value: unknown) => Refusal | null) =>
  (value: unknown): Refusal | null =>
    value === undefined || value === null ? null : check(value);

/**
 * PATCH /runs/:runId, fields in the order Run.report checks them. Its gate (the owning agent, an
 * open run) comes first, so the service reads it with `parseRequest` after the gate; `beat: true`
 * alone is a heartbeat and reads no other field. Rules across fields (a hand-over needs a step, a
 * waiting run cannot be lost) stay in Run.report.
 */
export class ReportRunBody {
  @FieldRule('beat', () => null, { schema: { type: 'boolean', description: 'true: a heartbeat; nothing else is read.' } })
  beat?: unknown;

  @TextField('goal', { max: GOAL_MAX, allowEmpty: true })
  goal?: string | null;

  @TextField('step', { max: STEP_MAX, allowEmpty: true })
  step?: string | null;

  @PlanField()
  steps?: string[] | null;

  @FieldRule(
    'step-index',
    unlessAbsent((v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= STEP_INDEX_MAX ? null : { code: 'run.step_index' })),
    { schema: { type: ['integer', 'null'], minimum: 0, maximum: STEP_INDEX_MAX } },
  )
  stepIndex?: number | null;

  @TextField('log', { max: LOG_LINE_MAX })
  log?: string;

  @FieldRule(
    'report-status',
    unlessAbsent((v) =>
      v === 'taken_over' ? { code: 'run.take_over_by_person' } : (REPORTED_STATUSES as readonly unknown[]).includes(v) ? null : { code: 'run.status_invalid' },
    ),
    { schema: { enum: [...REPORTED_STATUSES, null] } },
  )
  status?: (typeof REPORTED_STATUSES)[number] | null;

  @FieldRule(
    'report-for',
    unlessAbsent((v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= REPORT_FOR_MAX_MINUTES ? null : { code: 'run.report_for' })),
    { schema: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: REPORT_FOR_MAX_MINUTES, description: 'Minutes until the next report.' } },
  )
  reportFor?: number | null;
}

/** POST /runs/:runId/control */
export class ControlRunBody {
  @OneOf(CONTROL_WORDS, 'run.control_invalid')
  control: ControlWord;
}

/** GET /tasks/:taskId/runs?before=<runId> */
export class PastRunsQuery {
  @IdField('run', { missing: 'run.before_missing' })
  before: string;
}
