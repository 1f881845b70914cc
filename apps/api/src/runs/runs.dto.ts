import { CONTROL_WORDS, type ControlWord, GOAL_MAX, readPlan, STEP_MAX } from '@board/runs';
import { FieldRule, IdField, OneOf, refusalOf, TextField } from '../http/dto/field-rules';

/** A plan of steps: absent or null means none; else a list of texts (`readPlan`'s refusals). */
const PlanField = (): PropertyDecorator =>
  FieldRule('plan', (value) => (value === undefined || value === null ? null : refusalOf(() => readPlan(value))));

/** POST /tasks/:taskId/run, fields in the order the claim checks them. */
export class ClaimRunBody {
  @TextField('goal', { max: GOAL_MAX, allowEmpty: true })
  goal?: string | null;

  @PlanField()
  steps?: string[] | null;

  @TextField('step', { max: STEP_MAX, allowEmpty: true })
  step?: string | null;
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
