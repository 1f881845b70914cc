import { LIST_NAME_MAX, ListChange, ListCreate, ListTaskPlace, readAfterId, readListName } from '@board/lists';
import { Keeps } from '../http/dto/field-rules';

/**
 * Where a list (or a task in a list) goes: after this id; null, an unknown id or any value that is
 * not text puts it first. Never refused (`readAfterId`).
 */
const AfterIdField = (): PropertyDecorator =>
  Keeps('list-after-id', readAfterId, { doc: {
    schema: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }], description: 'Goes after this id; null or an unknown id: first.' },
  } });

/** POST /lists */
export class CreateListBody implements ListCreate {
  @Keeps('list-name', (value) => readListName(value, true), { doc: { schema: { type: 'string', maxLength: LIST_NAME_MAX }, required: true } })
  name: string;

  @AfterIdField()
  afterId?: string | null;
}

/**
 * PATCH /lists/:listId: the list id is checked before the body (`ListIdsCheck`). An absent name
 * keeps the name; a present afterId moves the list.
 */
export class UpdateListBody implements ListChange {
  @Keeps('list-name-change', (value) => readListName(value, false), { doc: { schema: { type: 'string', maxLength: LIST_NAME_MAX } } })
  name?: string;

  @AfterIdField()
  afterId?: string | null;
}

/** PUT /lists/:listId/tasks/:taskId: both ids are checked before the body (`ListIdsCheck`). */
export class PutListTaskBody implements ListTaskPlace {
  @AfterIdField()
  afterId?: string | null;
}
