import { parseId } from '@board/kernel';
import { readViewKind, readViewName, VIEW_KINDS, VIEW_NAME_MAX, ViewKind } from '@board/views';
import { CheckedInService, FieldRule, Keeps, ReadIdField, refusalOf } from '../http/dto/field-rules';

const NAME = { type: 'string', maxLength: VIEW_NAME_MAX };
const FILTERS = { $ref: '#/components/schemas/Rules', description: 'The rules a task must meet to show; `{ "rules": [] }` shows all.' };
const SORT = { $ref: '#/components/schemas/Sort', description: 'The order of the tasks; null: their own order on the board.' };

/** POST /projects/:projectId/views. Whether `groupById` is a property of the project is the service's. */
export class CreateViewBody {
  @Keeps('view-name', (value) => readViewName(value, true), { doc: { schema: NAME, required: true } })
  name: string;

  @Keeps('view-kind', (value) => (value === undefined || value === null ? undefined : readViewKind(value)), { doc: {
    schema: { enum: [...VIEW_KINDS, null], description: 'board by default' },
  } })
  kind?: ViewKind;

  @ReadIdField('property')
  groupById?: string | null;
}

/**
 * PATCH /views/:viewId. Filters, sort and `afterId` are read in the service after the grouping is
 * checked against the project's properties (the order of checks the contract keeps).
 */
export class UpdateViewBody {
  @Keeps('view-name', (value) => (value === undefined ? undefined : readViewName(value, true)), { doc: { schema: NAME } })
  name?: string;

  @Keeps('view-kind', (value) => (value === undefined ? undefined : readViewKind(value)), { doc: { schema: { type: 'string', enum: [...VIEW_KINDS] } } })
  kind?: ViewKind;

  @ReadIdField('property')
  groupById?: string | null;

  @CheckedInService('filters', FILTERS)
  filters?: unknown;

  @CheckedInService('sort', SORT)
  sort?: unknown;

  @CheckedInService('afterId', { type: ['string', 'null'], format: 'uuid', description: 'Put the view after this one (null: first).' })
  afterId?: unknown;
}

/** PUT /views/:viewId/lens: rules and order checked against the project's properties in the service. */
export class PutLensBody {
  @CheckedInService('filters', FILTERS)
  filters?: unknown;

  @CheckedInService('sort', SORT)
  sort?: unknown;
}

/** PATCH /projects/:projectId/card-view and /views/:viewId/card-view: rows are checked against the properties. */
export class PatchCardViewBody {
  @CheckedInService('rows', {
    type: 'object',
    description: 'By property id (or `_title`): where it shows on a card and how; a property left out is not shown.',
    additionalProperties: { type: 'object', properties: { place: { type: 'string' }, mode: { type: 'string' } } },
  })
  rows?: unknown;
}

/** GET /views/:viewId/tasks?limit=&after= */
export class ViewTasksQuery {
  @FieldRule('limit', (value) => {
    if (value === undefined) return null;
    const limit = Number(value);
    return /^\d+$/.test(String(value)) && limit >= 1 && limit <= 500 ? null : { code: 'query.limit_invalid' };
  }, { schema: { type: 'integer', minimum: 1, maximum: 500, description: 'Tasks in the page.' } })
  limit?: string;

  @FieldRule('after', (value) => (value === undefined || value === '' ? null : refusalOf(() => parseId(value, 'task'))), {
    schema: { type: 'string', format: 'uuid', description: 'The `next` of the page before.' },
  })
  after?: string;
}
