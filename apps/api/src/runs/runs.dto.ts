import {
  ANSWER_MAX, type AnswerSent, CONTROL_WORDS, type ControlWord, GOAL_MAX, LINK_KINDS, LINK_TITLE_MAX, LINK_URL_MAX, type LinkSent, LINKS_KEPT, LOG_LINE_MAX, MODEL_MAX,
  OPTION_MAX, OPTIONS_MAX, OPTIONS_MIN, PLAN_MAX, QUESTION_TEXT_MAX, type QuestionAsked, REPORT_FOR_MAX_MINUTES, type ReportedStatus,
  readAnswerSent, REPORTED_STATUSES, RUN_CLAIM_FIELDS, RUN_REPORT_FIELDS, type RunClaim, type RunReport, STEP_INDEX_MAX, STEP_MAX, USAGE_MAX, type UsageSent,
} from '@board/runs';
import { fail, parseId } from '@board/kernel';
import { Keeps, OneOf } from '../http/dto/field-rules';

/** A plan of steps: absent or null means none; else a list of texts (`readPlan`'s refusals). */
const PLAN_SCHEMA = { type: ['array', 'null'], maxItems: PLAN_MAX, items: { type: 'string', maxLength: STEP_MAX }, description: 'The plan: step texts, trimmed.' };
const GOAL_SCHEMA = { type: ['string', 'null'], maxLength: GOAL_MAX };
const STEP_SCHEMA = { type: ['string', 'null'], maxLength: STEP_MAX };

/** A claim's field, read by the domain's reader (`RUN_CLAIM_FIELDS`) and kept as read. */
const ClaimField = (name: keyof RunClaim, schema: Record<string, unknown>): PropertyDecorator => Keeps(`claim:${name}`, RUN_CLAIM_FIELDS[name], { doc: { schema } });

/** POST /tasks/:taskId/run, fields in the order the claim checks them: the claim as read (`RunClaim`). */
export class ClaimRunBody implements RunClaim {
  @ClaimField('goal', GOAL_SCHEMA)
  goal?: string;

  @ClaimField('steps', PLAN_SCHEMA)
  steps?: string[];

  @ClaimField('step', STEP_SCHEMA)
  step?: string;
}

/**
 * A report's field, read by the domain's reader (`RUN_REPORT_FIELDS`) and kept as read; a
 * heartbeat (`beat: true`, read first) reads none of them.
 */
const ReportField = (name: keyof RunReport, schema: Record<string, unknown>): PropertyDecorator =>
  Keeps(`report:${name}`, RUN_REPORT_FIELDS[name], { doc: { schema }, skip: (dto) => (dto as ReportRunBody).beat });

/**
 * PATCH /runs/:runId, fields in the order the contract checks them; its gate (the owning agent,
 * an open run: `RunReporterCheck`) comes before. The body is the report itself (`RunReport`), or
 * with `beat: true` a heartbeat. Rules across fields (a hand-over needs a step, a waiting run
 * cannot be lost) stay in Run.report.
 */
export class ReportRunBody implements RunReport {
  @Keeps('beat', (value) => value === true, { doc: { schema: { type: 'boolean', description: 'true: a heartbeat; nothing else is read.' } } })
  beat: boolean;

  @ReportField('goal', GOAL_SCHEMA)
  goal?: string;

  @ReportField('step', STEP_SCHEMA)
  step?: string;

  @ReportField('steps', PLAN_SCHEMA)
  steps?: string[];

  @ReportField('stepIndex', { type: ['integer', 'null'], minimum: 0, maximum: STEP_INDEX_MAX })
  stepIndex?: number;

  @ReportField('log', { type: 'string', maxLength: LOG_LINE_MAX })
  log?: string;

  @ReportField('status', { enum: [...REPORTED_STATUSES, null] })
  status?: ReportedStatus;

  @ReportField('reportFor', { type: ['number', 'null'], exclusiveMinimum: 0, maximum: REPORT_FOR_MAX_MINUTES, description: 'Minutes until the next report.' })
  reportFor?: number;

  @ReportField('question', {
      type: ['object', 'null'],
      properties: {
        text: { type: 'string', minLength: 1, maxLength: QUESTION_TEXT_MAX, example: 'Keep the old redirect for API clients?' },
        options: { type: ['array', 'null'], minItems: OPTIONS_MIN, maxItems: OPTIONS_MAX, items: { type: 'string', minLength: 1, maxLength: OPTION_MAX }, example: ['Keep it', 'Drop it'] },
        multiple: { type: 'boolean', description: 'One or more options may be chosen (default false).' },
      },
      required: ['text'],
      description: 'A question for a person, only with status waiting; it replaces the run\'s last question.',
  })
  question?: QuestionAsked;

  @ReportField('links', {
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
  })
  links?: LinkSent[];

  @ReportField('usage', {
      type: ['object', 'null'],
      properties: {
        inputTokens: { type: 'integer', minimum: 0, maximum: USAGE_MAX },
        outputTokens: { type: 'integer', minimum: 0, maximum: USAGE_MAX },
        costMicros: { type: 'integer', minimum: 0, maximum: USAGE_MAX, description: 'Millionths of the team\'s currency.' },
        model: { type: 'string', maxLength: MODEL_MAX },
      },
      description: "The run's totals so far (a retried report counts once); a count never goes down.",
  })
  usage?: UsageSent;
}

/** POST /runs/:runId/answer: read as text and as picks; the run's question says which counts (`Run.answer`). */
export class AnswerRunBody {
  @Keeps('run-answer', readAnswerSent, {
    doc: {
      schema: {
        anyOf: [{ type: 'array', items: { type: 'string' }, example: ['Keep it'] }, { type: 'string', maxLength: ANSWER_MAX }],
        description: 'The chosen options, exactly as offered; or text for a free question.',
      },
      required: true,
    },
  })
  answer: AnswerSent;
}

/** POST /runs/:runId/control */
export class ControlRunBody {
  @OneOf(CONTROL_WORDS, 'run.control_invalid')
  control: ControlWord;
}

/** GET /tasks/:taskId/runs?before=<runId> */
export class PastRunsQuery {
  @Keeps('run-before', (value) => (value === undefined || value === null || value === '' ? fail('run.before_missing') : parseId(value, 'run')), {
    doc: { schema: { type: 'string', format: 'uuid', description: 'A run id.' }, required: true },
  })
  before: string;
}
