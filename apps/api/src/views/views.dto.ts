import { parseId } from '@board/kernel';
import { readViewKind, readViewName } from '@board/views';
import { CheckedInService, FieldRule, IdField, OptionalField, refusalOf } from '../http/dto/field-rules';

/** POST /projects/:projectId/views. Whether `groupById` is a property of the project is the service's. */
export class CreateViewBody {
  @FieldRule('view-name', (value) => refusalOf(() => readViewName(value, true)))
  name: unknown;

  @FieldRule('view-kind', (value) => (value === undefined || value === null ? null : refusalOf(() => readViewKind(value))))
  kind?: unknown;

  @IdField('property')
  groupById?: string | null;
}

/**
 * PATCH /views/:viewId. Filters, sort and `afterId` are read in the service after the grouping is
 * checked against the project's properties (the order of checks the contract keeps).
 */
export class UpdateViewBody {
  @OptionalField('view-name', (value) => readViewName(value, true))
  name?: unknown;

  @OptionalField('view-kind', readViewKind)
  kind?: unknown;

  @IdField('property')
  groupById?: string | null;

  @CheckedInService('filters')
  filters?: unknown;

  @CheckedInService('sort')
  sort?: unknown;

  @CheckedInService('afterId')
  afterId?: unknown;
}

/** PUT /views/:viewId/lens: rules and order checked against the project's properties in the service. */
export class PutLensBody {
  @CheckedInService('filters')
  filters?: unknown;

  @CheckedInService('sort')
  sort?: unknown;
}

/** PATCH /projects/:projectId/card-view and /views/:viewId/card-view: rows are checked against the properties. */
export class PatchCardViewBody {
  @CheckedInService('rows')
  rows?: unknown;
}

/** GET /views/:viewId/tasks?limit=&after= */
export class ViewTasksQuery {
  @FieldRule('limit', (value) => {
    if (value === undefined) return null;
    const limit = Number(value);
    return /^\d+$/.test(String(value)) && limit >= 1 && limit <= 500 ? null : { code: 'query.limit_invalid' };
  })
  limit?: string;

  @FieldRule('after', (value) => (value === undefined || value === '' ? null : refusalOf(() => parseId(value, 'task'))))
  after?: string;
}
