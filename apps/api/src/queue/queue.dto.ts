import { ReadIdField } from '../http/dto/field-rules';
import { ClaimRunBody } from '../runs/runs.dto';

/** POST /projects/:projectId/runs/next: the claim's fields in the claim's order, and a view to take from. */
export class NextRunBody extends ClaimRunBody {
  @ReadIdField('view')
  viewId?: string | null;
}
