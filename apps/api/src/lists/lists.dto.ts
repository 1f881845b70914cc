import { LIST_NAME_MAX, readListName } from '@board/lists';
import { FieldRule, refusalOf } from '../http/dto/field-rules';

/**
 * Where a list (or a task in a list) goes: after this id; null, an unknown id or any value that is
 * not text puts it first. Never refused (`readAfterId`).
 */
const AfterIdField = (): PropertyDecorator =>
  FieldRule('list-after-id', () => null, {
    schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }], description: 'Goes after this id; null or an unknown id: first.' },
  });

/** POST /lists */
export class CreateListBody {
  @FieldRule('list-name', (value) => refusalOf(() => readListName(value, true)), { schema: { type: 'string', maxLength: LIST_NAME_MAX }, required: true })
  name: string;

  @AfterIdField()
  afterId?: unknown;
}

/**
 * PATCH /lists/:listId: the list id is read before the body, so the service reads this with
 * `parseRequest` after it. An absent name keeps the name; a present afterId moves the list.
 */
export class UpdateListBody {
  @FieldRule('list-name-change', (value) => refusalOf(() => readListName(value, false)), { schema: { type: 'string', maxLength: LIST_NAME_MAX } })
  name?: string;

  @AfterIdField()
  afterId?: unknown;
}

/** PUT /lists/:listId/tasks/:taskId: both ids are read before the body (`parseRequest` in the service). */
export class PutListTaskBody {
  @AfterIdField()
  afterId?: unknown;
}
