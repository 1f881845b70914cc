import {
  ANSWER_MAX, CONTROL_WORDS, type ControlWord, GOAL_MAX, LINK_KINDS, LINK_TITLE_MAX, LINK_URL_MAX, LINKS_KEPT, LOG_LINE_MAX, MODEL_MAX, OPTION_MAX,
  OPTIONS_MAX, OPTIONS_MIN, PLAN_MAX, QUESTION_TEXT_MAX, readLinks, readPlan, readQuestion, readUsage, REPORT_FOR_MAX_MINUTES, REPORTED_STATUSES,
  STEP_INDEX_MAX, STEP_MAX, USAGE_MAX,
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

  @FieldRule('run-question', unlessAbsent((v) => refusalOf(() => readQuestion(v))), {
    schema: {
      type: ['object', 'null'],
      properties: {
        text: { type: 'string', minLength: 1, maxLength: QUESTION_TEXT_MAX, example: 'Keep the old redirect for API clients?' },
        options: { type: ['array', 'null'], minItems: OPTIONS_MIN, maxItems: OPTIONS_MAX, items: { type: 'string', minLength: 1, maxLength: OPTION_MAX }, example: ['Keep it', 'Drop it'] },
        multiple: { type: 'boolean', description: 'One or more options may be chosen (default false).' },
      },
      required: ['text'],
      description: 'A question for a person, only with status waiting; it replaces the run\'s last question.',
    },
  })
  question?: unknown;

  @FieldRule('run-links', unlessAbsent((v) => refusalOf(() => readLinks(v))), {
    schema: {
      type: ['array', 'null'],
      maxItems: LINKS_KEPT,
      items: {
        type: 'object',
        properties: {
          url: { type: 'string', maxLength: LINK_URL_MAX, example: 'https://git.example.com/web/pull/42' },
          title: { type: ['string', 'null'], maxLength: LINK_TITLE_MAX },
          kind: { enum: [...LINK_KINDS] },
        },
        required: ['url'],
      },
      description: 'What the run produced; a url already kept replaces that link in place.',
    },
  })
  links?: unknown;

  @FieldRule('run-usage', unlessAbsent((v) => refusalOf(() => readUsage(v))), {
    schema: {
      type: ['object', 'null'],
      properties: {
        inputTokens: { type: 'integer', minimum: 0, maximum: USAGE_MAX },
        outputTokens: { type: 'integer', minimum: 0, maximum: USAGE_MAX },
        costMicros: { type: 'integer', minimum: 0, maximum: USAGE_MAX, description: 'Millionths of the team\'s currency.' },
        model: { type: 'string', maxLength: MODEL_MAX },
      },
      description: "The run's totals so far (a retried report counts once); a count never goes down.",
    },
  })
  usage?: unknown;
}

/** POST /runs/:runId/answer: checked against the run's question by `Run.answer` (a choice, or text). */
export class AnswerRunBody {
  @FieldRule('run-answer', () => null, {
    schema: {
      anyOf: [{ type: 'array', items: { type: 'string' }, example: ['Keep it'] }, { type: 'string', maxLength: ANSWER_MAX }],
      description: 'The chosen options, exactly as offered; or text for a free question.',
    },
    required: true,
  })
  answer: unknown;
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
