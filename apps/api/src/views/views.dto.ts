import { Filters, readFilters, readSort, SortSpec } from '@board/filters';
import { fail, InTurn, parseId } from '@board/kernel';
import {
  CardRowsAsked, LensAsked, readCardRowsAsked, readViewKind, readViewName, VIEW_KINDS, VIEW_NAME_MAX, ViewChange, ViewCreate, ViewKind,
} from '@board/views';
import { FieldSchema, Keeps, KeepsInTurn, ReadIdField } from '../http/dto/field-rules';

const NAME = { type: 'string', maxLength: VIEW_NAME_MAX };
const FILTERS = { $ref: '#/components/schemas/Rules', description: 'The rules a task must meet to show; `{ "rules": [] }` shows all.' };
const SORT = { $ref: '#/components/schemas/Sort', description: 'The order of the tasks; null: their own order on the board.' };

/** Filters read for their shape, never refused (the project's properties judge the rules). */
const FiltersField = (optional: boolean): PropertyDecorator => Keeps('filters', readFilters, { optional, doc: { schema: FILTERS } });
/** A sort read for its shape, never refused; null: none. */
const SortField = (optional: boolean): PropertyDecorator => Keeps('sort', readSort, { optional, doc: { schema: SORT } });

/** POST /projects/:projectId/views. Whether `groupById` is a property of the project is the service's. */
export class CreateViewBody implements ViewCreate {
  @Keeps('view-name', (value) => readViewName(value, true), { doc: { schema: NAME, required: true } })
  name: string;

  @Keeps('view-kind', (value) => (value === undefined || value === null ? 'board' : readViewKind(value)), { doc: {
    schema: { enum: [...VIEW_KINDS, null], description: 'board by default' },
  } })
  kind: ViewKind;

  @ReadIdField('property')
  groupById?: string | null;
}

/**
 * PATCH /views/:viewId. Filters and sort are read for their shape here and judged against the
 * project's properties in the service; `afterId` is refused after the grouping is checked (the
 * order of checks the contract keeps), so its refusal waits its turn.
 */
export class UpdateViewBody implements ViewChange {
  @Keeps('view-name', (value) => (value === undefined ? undefined : readViewName(value, true)), { doc: { schema: NAME } })
  name?: string;

  @Keeps('view-kind', (value) => (value === undefined ? undefined : readViewKind(value)), { doc: { schema: { type: 'string', enum: [...VIEW_KINDS] } } })
  kind?: ViewKind;

  @ReadIdField('property')
  groupById?: string | null;

  @FiltersField(true)
  filters?: Filters;

  @SortField(true)
  sort?: SortSpec | null;

  @KeepsInTurn('afterId', (value) => (value === null ? null : parseId(value, 'view')), {
    doc: { schema: { type: ['string', 'null'], format: 'uuid', description: 'Put the view after this one (null: first).' } },
  })
  afterId?: InTurn<string | null>;
}

/** PUT /views/:viewId/lens: rules and order, judged against the project's properties in the service. */
export class PutLensBody implements LensAsked {
  @FiltersField(false)
  filters: Filters;

  @SortField(false)
  sort: SortSpec | null;
}

const ROWS: FieldSchema = {
  schema: {
    type: 'object',
    description: 'By property id (or `_title`): where it shows on a card and how; a property left out is not shown.',
    additionalProperties: { type: 'object', properties: { place: { type: 'string' }, mode: { type: 'string' } } },
  },
};

/**
 * PATCH /projects/:projectId/card-view: rows by key. Whether a key is a property of the project is
 * stored state, checked entry by entry before the entry's row, so the rows' refusals wait their turn.
 */
export class PatchCardViewBody {
  @KeepsInTurn('rows', readCardRowsAsked, { absent: 'read', doc: ROWS })
  rows: InTurn<CardRowsAsked>;
}

/** PATCH /views/:viewId/card-view: the same rows, or null to go back to the project's card view. */
export class PatchViewCardViewBody {
  @KeepsInTurn('rows', (value) => (value === null ? null : readCardRowsAsked(value)), { absent: 'read', doc: ROWS })
  rows: InTurn<CardRowsAsked | null>;
}

/** GET /views/:viewId/tasks?limit=&after= */
export class ViewTasksQuery {
  @Keeps('limit', (value) => {
    if (value === undefined) return 100;
    const limit = Number(value);
    if (!/^\d+$/.test(String(value)) || limit < 1 || limit > 500) fail('query.limit_invalid');
    return limit;
  }, { doc: { schema: { type: 'integer', minimum: 1, maximum: 500, description: 'Tasks in the page.' } } })
  limit: number;

  /** The last task of the page before (empty reads as none). */
  @Keeps('after', (value) => (value === undefined || value === '' ? null : parseId(value, 'task')), {
    doc: { schema: { type: 'string', format: 'uuid', description: 'The `next` of the page before.' } },
  })
  after: string | null;
}
