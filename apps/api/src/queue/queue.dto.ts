import { GOAL_MAX, STEP_MAX } from '@board/runs';
import { IdField, TextField } from '../http/dto/field-rules';
import { PlanField } from '../runs/runs.dto';

/** POST /projects/:projectId/runs/next: a view to take from, then the claim's fields in the claim's order. */
export class NextRunBody {
  @IdField('view')
  viewId?: string | null;

  @TextField('goal', { max: GOAL_MAX, allowEmpty: true })
  goal?: string | null;

  @PlanField()
  steps?: string[] | null;

  @TextField('step', { max: STEP_MAX, allowEmpty: true })
  step?: string | null;
}
