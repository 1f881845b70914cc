import type { JsonSchema } from '../dto-schema';
import { anyJson, arrayOf, bool, day, mapOf, nullable, obj, rank, ref, str, timestamp, uuid, words } from './common';

const rules = obj({ rules: arrayOf(obj({ propertyId: uuid, op: str, values: arrayOf(str), text: str }, ['values', 'text'])) });
const sort = nullable(obj({ columnId: str, direction: words('asc', 'desc') }));

/** Properties, options, views, card view, changelog (interface.md › Resources). */
export const PROPERTY_SCHEMAS: Record<string, JsonSchema> = {
  Option: obj(
    { id: uuid, propertyId: uuid, name: str, color: str, position: rank, startsOn: nullable(day), targetOn: nullable(day), note: nullable(str), shippedAt: nullable(day) },
    ['startsOn', 'targetOn', 'note', 'shippedAt'],
    'An option; a dated select or an iteration option may also carry a start, a target and a note.',
  ),
  Property: obj(
    {
      id: uuid,
      projectId: uuid,
      name: str,
      type: words('select', 'multi_select', 'iteration', 'person', 'text', 'number', 'date', 'checkbox', 'link'),
      position: rank,
      config: obj(
        { dated: bool, defaults: mapOf(anyJson), when: nullable(obj({ propertyId: uuid, optionIds: arrayOf(uuid) })) },
        ['dated', 'defaults', 'when'],
        '`dated` (a select whose options carry dates: releases and sprints), `defaults` (values a new task of a Type option gets, by option id) and the `when` rule (the property applies only to tasks with some options of a select), when set.',
      ),
      options: arrayOf(ref('Option')),
      createdAt: timestamp,
    },
    ['projectId', 'createdAt'],
  ),
  Rules: rules,
  Sort: sort,
  View: obj(
    {
      id: uuid,
      name: str,
      kind: words('board', 'list', 'roadmap'),
      groupById: nullable(uuid),
      position: rank,
      isDefault: bool,
      filters: rules,
      lens: rules,
      sort,
      lensSort: sort,
      cardView: nullable(ref('CardView')),
    },
    ['lens', 'lensSort', 'cardView'],
  ),
  CardView: obj({ rows: mapOf(obj({ place: str, mode: str }, ['mode'])) }, [], 'Where each property shows on a card.'),
  ChangelogEntry: obj({
    optionId: uuid,
    propertyId: uuid,
    propertyName: str,
    name: str,
    shippedAt: day,
    note: nullable(str),
    tasks: arrayOf(obj({ id: uuid, key: str, title: str })),
  }),
};
