import { fail, parseId } from '@board/kernel';
import { DESCRIPTION_MAX, readDescription, readTitle, TITLE_MAX } from '@board/tasks';
import { FieldRule, Refusal, refusalOf } from '../http/dto/field-rules';

/**
 * Request DTOs of the task routes. Each checks the shape and the contract's field sentences in
 * the order the route always checked them, through the domain's own readers (`readTitle`,
 * `parseId`, …): the services read the same readers' normalised values (trimmed, lower-case ids).
 * What needs the project's properties (a value, `values`, a bulk `change`) stays with the domain,
 * after the read: those fields are declared here and checked there.
 */

export const BULK_MAX = 200;

/** `taskIds` of a bulk call: a list of 1 to 200 task ids, duplicates counted once. */
export function readTaskIds(raw: unknown): string[] {
  if (!Array.isArray(raw)) fail('bulk.ids_not_list');
  const ids = [...new Set((raw as unknown[]).map((id) => parseId(id, 'task')))];
  if (ids.length === 0) fail('bulk.empty');
  if (ids.length > BULK_MAX) fail('bulk.too_many');
  return ids;
}

/** Read by the domain once the project's definitions are loaded (never refused here). */
const CheckedLater = (field: string): PropertyDecorator => FieldRule(`later:${field}`, () => null);

/** A task id; absent or null passes (a placement left out). */
const OptionalTaskId = (field: string): PropertyDecorator =>
  FieldRule(`task-id:${field}`, (value) => (value === undefined || value === null ? null : refusalOf(() => parseId(value, 'task'))), {
    schema: { type: ['string', 'null'], format: 'uuid', description: 'A task id.' },
  });

/** A task id that must be there: `That is not a task id.` for anything else. */
const TaskId = (field: string): PropertyDecorator =>
  FieldRule(`task-id:${field}`, (value) => refusalOf(() => parseId(value, 'task')), { schema: { type: 'string', format: 'uuid', description: 'A task id.' }, required: true });

const Title = (required: boolean): PropertyDecorator =>
  FieldRule(`title:${required}`, (value) => refusalOf(() => readTitle(value, required)), { schema: { type: 'string', maxLength: TITLE_MAX }, required });
const Description = (): PropertyDecorator =>
  FieldRule('description', (value) => refusalOf(() => readDescription(value)), {
    schema: { type: ['string', 'null'], maxLength: DESCRIPTION_MAX, description: '"" or null clears it.' },
  });

/** POST /projects/:projectId/tasks */
export class CreateTaskBody {
  @Title(true)
  title: string;

  @Description()
  description?: string | null;

  @OptionalTaskId('afterId')
  afterId?: string | null;

  /** Only `true` puts the task on top. */
  @CheckedLater('atTop')
  atTop?: unknown;

  @CheckedLater('values')
  values?: unknown;
}

/** PATCH /tasks/:taskId: title and description, each with the base it was edited from. */
export class EditTaskBody {
  @Title(false)
  title?: string;

  @Description()
  description?: string | null;

  /** Compared only when text; anything else means no base. */
  @CheckedLater('baseTitle')
  baseTitle?: unknown;

  @CheckedLater('baseDescription')
  baseDescription?: unknown;
}

/** POST /tasks/:taskId/move: `beforeId` wins over `afterId` (which is then not read). */
export class MoveTaskBody {
  @OptionalTaskId('beforeId')
  beforeId?: string | null;

  @FieldRule('task-id:afterId', (value, dto) =>
    (dto as MoveTaskBody).beforeId !== undefined && (dto as MoveTaskBody).beforeId !== null ? null : value === undefined || value === null ? null : refusalOf(() => parseId(value, 'task')),
    { schema: { type: ['string', 'null'], format: 'uuid', description: 'A task id, read when beforeId is absent.' } },
  )
  afterId?: string | null;

  @CheckedLater('values')
  values?: unknown;
}

/** PUT /tasks/:taskId/values/:propertyId */
export class PutValueBody {
  @CheckedLater('value')
  value?: unknown;
}

const bulkTaskIds = (value: unknown): Refusal | null => refusalOf(() => readTaskIds(value));

/** POST /projects/:projectId/tasks/values */
export class BulkValuesBody {
  @FieldRule('bulk-task-ids', bulkTaskIds)
  taskIds: string[];

  @FieldRule('bulk-property', (value) => (value === undefined || value === null ? { code: 'bulk.no_property' } : refusalOf(() => parseId(value, 'property'))))
  propertyId: string;

  /** `add` or `remove` (multi-select only), checked after the property is found. */
  @CheckedLater('change')
  change?: unknown;

  @CheckedLater('value')
  value?: unknown;
}

/** POST /projects/:projectId/archive: named tasks, or else the column of one property's value. */
export class BulkArchiveBody {
  @FieldRule('bulk-task-ids', (value) => (value === undefined ? null : bulkTaskIds(value)))
  taskIds?: string[];

  @FieldRule('bulk-column', (value, dto) => {
    if ((dto as BulkArchiveBody).taskIds !== undefined) return null;
    return value === undefined ? { code: 'bulk.no_target' } : refusalOf(() => parseId(value, 'property'));
  })
  propertyId?: string;

  /** The column's value; missing and null both mean the tasks holding nothing. */
  @CheckedLater('value')
  value?: unknown;
}

/** POST /tasks/:taskId/blockers */
export class AddBlockerBody {
  @TaskId('blockerId')
  blockerId: string;
}

/** PUT /tasks/:taskId/parent */
export class SetParentBody {
  @TaskId('parentId')
  parentId: string;
}

/** GET /projects/:projectId/search?q= — anything but text searches for nothing. */
export class SearchQuery {
  @CheckedLater('q')
  q?: unknown;
}
