import { fail, InTurn, parseId } from '@board/kernel';
import {
  AddBlocker, BulkArchive, BulkChange, BulkValues, CreateTask, DESCRIPTION_MAX, EditTask, MoveTask, PutValue, readBulkChange, readDescription, readTitle, SetParent, TITLE_MAX,
} from '@board/tasks';
import { FieldRule, Keeps, KeepsInTurn } from '../http/dto/field-rules';

/**
 * Request DTOs of the task routes. Each checks the shape and the contract's field sentences in
 * the order the route always checked them, through the domain's own readers (`readTitle`,
 * `parseId`, …), and keeps what each reader answered (trimmed text, lower-case ids): each DTO's
 * `command()` hands the service a typed command, so no field is read twice. A value and `values`
 * are carried as sent: what they may be is each property's type, which only the domain holds. A
 * bulk `change` is read here and refused in its turn, once the property is found.
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

/** Read by the domain once the project's definitions are loaded (never refused here); `schema` documents it. */
const CheckedLater = (field: string, schema: Record<string, unknown>): PropertyDecorator => FieldRule(`later:${field}`, () => null, { schema });

/** What the API document shows of values (/api/docs draws its example from `examples`). */
const EXAMPLE_PROPERTY = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b';
const EXAMPLE_OPTION = '0b9e7d6c-5a4b-4c3d-8e2f-1a0b9c8d7e6f';
const A_VALUE = {
  description:
    'A value of the property, by its type: an option id (select, iteration), a list of option ids (multi-select), a member id (person), text, a number, a date `YYYY-MM-DD`, true or false (checkbox), a list of links; null clears it.',
  examples: [EXAMPLE_OPTION],
};
const VALUES = {
  type: 'object',
  description: 'Values to set at once, by property id (each as `PUT /api/tasks/{taskId}/values/{propertyId}` takes it).',
  additionalProperties: A_VALUE,
  examples: [{ [EXAMPLE_PROPERTY]: EXAMPLE_OPTION }],
};

/** A task id or nothing: absent and null read as null (a placement left out). */
const optionalTaskId = (value: unknown): string | null => (value === undefined || value === null ? null : parseId(value, 'task'));

/** A task id; absent or null passes (a placement left out). */
const OptionalTaskId = (field: string): PropertyDecorator =>
  Keeps(`task-id:${field}`, optionalTaskId, { doc: { schema: { type: ['string', 'null'], format: 'uuid', description: 'A task id.' } } });

/** A task id that must be there: `That is not a task id.` for anything else. */
const TaskId = (field: string): PropertyDecorator =>
  Keeps(`task-id:${field}`, (value) => parseId(value, 'task'), { doc: { schema: { type: 'string', format: 'uuid', description: 'A task id.' }, required: true } });

const Title = (required: boolean): PropertyDecorator =>
  Keeps(`title:${required}`, (value) => readTitle(value, required), { doc: { schema: { type: 'string', maxLength: TITLE_MAX }, required } });
/** The text an edit started from, as sent (not trimmed: it is compared); anything but text is no base. */
const BaseText = (field: string, description: string): PropertyDecorator =>
  Keeps(`base:${field}`, (value) => (typeof value === 'string' ? value : undefined), { doc: { schema: { type: 'string', description } } });

const Description = (): PropertyDecorator =>
  Keeps('description', (value) => readDescription(value), { doc: {
    schema: { type: ['string', 'null'], maxLength: DESCRIPTION_MAX, description: '"" or null clears it.' },
  } });

/** POST /projects/:projectId/tasks */
export class CreateTaskBody {
  @Title(true)
  title: string;

  @Description()
  description?: string | null;

  @OptionalTaskId('afterId')
  afterId?: string | null;

  /** Only `true` puts the task on top; anything else is not read. */
  @Keeps('atTop', (value) => value === true, { doc: { schema: { type: 'boolean', description: 'true puts the task on top of its column (else at the end, or after `afterId`).' } } })
  atTop: boolean;

  @CheckedLater('values', VALUES)
  values?: unknown;

  command(): CreateTask {
    const placement = this.afterId ? { afterId: this.afterId } : this.atTop ? 'top' : 'end';
    return { title: this.title, description: this.description ?? '', placement, values: this.values };
  }
}

/** PATCH /tasks/:taskId: title and description, each with the base it was edited from. */
export class EditTaskBody {
  @Title(false)
  title?: string;

  @Description()
  description?: string | null;

  /** Compared only when text; anything else means no base. */
  @BaseText('baseTitle', 'The title as it was when you began to edit it: 409 when it changed meanwhile.')
  baseTitle?: string;

  @BaseText('baseDescription', 'The description as it was when you began to edit it: 409 when it changed meanwhile.')
  baseDescription?: string;

  command(): EditTask {
    return { title: this.title, description: this.description ?? undefined, baseTitle: this.baseTitle, baseDescription: this.baseDescription };
  }
}

/** POST /tasks/:taskId/move: `beforeId` wins over `afterId` (which is then not read). */
export class MoveTaskBody {
  @OptionalTaskId('beforeId')
  beforeId?: string | null;

  @Keeps('task-id:afterId', (value, dto) => ((dto as MoveTaskBody).beforeId ? null : optionalTaskId(value)), { doc: {
    schema: { type: ['string', 'null'], format: 'uuid', description: 'A task id, read when beforeId is absent.' },
  } })
  afterId?: string | null;

  @CheckedLater('values', { ...VALUES, description: 'Values the move sets too, by property id (the column the task lands in, say).' })
  values?: unknown;

  command(): MoveTask {
    return { beforeId: this.beforeId ?? null, afterId: this.afterId ?? null, values: this.values };
  }
}

/** PUT /tasks/:taskId/values/:propertyId */
export class PutValueBody {
  @CheckedLater('value', A_VALUE)
  value?: unknown;

  command(): PutValue {
    return { value: this.value };
  }
}

/** POST /projects/:projectId/tasks/values */
export class BulkValuesBody {
  @Keeps('bulk-task-ids', readTaskIds, { doc: { schema: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: BULK_MAX, description: 'The tasks, by id.' }, required: true } })
  taskIds: string[];

  @Keeps('bulk-property', (value) => (value === undefined || value === null ? fail('bulk.no_property') : parseId(value, 'property')), { doc: {
    schema: { type: 'string', format: 'uuid', description: 'The property to set.' },
    required: true,
  } })
  propertyId: string;

  /** `add` or `remove` (multi-select only), refused after the property is found. */
  @KeepsInTurn('change', readBulkChange, {
    absent: 'read',
    doc: { schema: { enum: ['add', 'remove'], description: 'For a multi-select: add the option to, or take it off, each task (without it, the value replaces theirs).' } },
  })
  change: InTurn<BulkChange | null>;

  @CheckedLater('value', A_VALUE)
  value?: unknown;

  command(): BulkValues {
    return { taskIds: this.taskIds, propertyId: this.propertyId, change: this.change, value: this.value };
  }
}

/** POST /projects/:projectId/archive: named tasks, or else the column of one property's value. */
export class BulkArchiveBody {
  @Keeps('bulk-task-ids', (value) => (value === undefined ? undefined : readTaskIds(value)), { doc: {
    schema: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: BULK_MAX, description: 'The tasks, by id; or leave it out and name a column.' },
  } })
  taskIds?: string[];

  @Keeps('bulk-column', (value, dto) => {
    if ((dto as BulkArchiveBody).taskIds !== undefined) return value;
    return value === undefined ? fail('bulk.no_target') : parseId(value, 'property');
  }, { doc: { schema: { type: 'string', format: 'uuid', description: 'The property the column comes from, when no taskIds are named.' } } })
  propertyId?: string;

  /** The column's value; missing and null both mean the tasks holding nothing. */
  @CheckedLater('value', { ...A_VALUE, description: 'The column: the tasks whose value of the property is this (missing or null: the tasks with none).' })
  value?: unknown;

  command(): BulkArchive {
    return this.taskIds !== undefined ? { taskIds: this.taskIds } : { propertyId: this.propertyId as string, value: this.value };
  }
}

/** POST /tasks/:taskId/blockers */
export class AddBlockerBody {
  @TaskId('blockerId')
  blockerId: string;

  command(): AddBlocker {
    return { blockerId: this.blockerId };
  }
}

/** PUT /tasks/:taskId/parent */
export class SetParentBody {
  @TaskId('parentId')
  parentId: string;

  command(): SetParent {
    return { parentId: this.parentId };
  }
}

/** GET /projects/:projectId/search?q= — anything but text searches for nothing (''). */
export class SearchQuery {
  @Keeps('q', (value) => (typeof value === 'string' ? value : ''), { doc: { schema: { type: 'string', description: 'Words to find in titles and descriptions.', examples: ['login bug'] } } })
  q: string;
}
