import { hasOptions, OPTIONS_ON_CREATE_MAX, PROPERTY_NAME_MAX, PROPERTY_TYPES, PropertyType, readBoolean, readInitialOptions, readPropertyName, readPropertyType } from '@board/properties';
import { readShipRest, readShipStrays, SHIP_RESTS, ShipRest } from '@board/shipping';
import { CheckedInService, FieldRule, Keeps, refusalOf } from '../http/dto/field-rules';

/** POST /projects/:projectId/properties: name, type, then the first options of a type that has them. */
const NAME = { type: 'string', maxLength: PROPERTY_NAME_MAX, examples: ['Priority'] };
const DAY = { type: ['string', 'null'], format: 'date', description: 'A day, YYYY-MM-DD; null clears it.' };
const AFTER_ID = (what: string) => ({ type: ['string', 'null'], format: 'uuid', description: `Put it after this ${what} (null: first).` });

export class CreatePropertyBody {
  @Keeps('property-name', (value) => readPropertyName(value, true), { doc: { schema: NAME, required: true } })
  name: string;

  @Keeps('property-type', readPropertyType, { doc: { schema: { type: 'string', enum: [...PROPERTY_TYPES] }, required: true } })
  type: PropertyType;

  @FieldRule('property-options', (value, dto) => {
    const { name, type } = dto as CreatePropertyBody;
    // Name and type are read (and passed) by now: the fields are checked in order.
    return hasOptions(type) ? refusalOf(() => readInitialOptions(name, value, OPTIONS_ON_CREATE_MAX)) : null;
  }, {
    schema: {
      type: 'array',
      items: { type: 'string' },
      maxItems: OPTIONS_ON_CREATE_MAX,
      description: 'The first options, by name, for a select, multi-select or iteration.',
      examples: [['Urgent', 'High', 'Low']],
    },
  })
  options?: unknown;
}

/**
 * PATCH /properties/:propertyId. Name and showOnCard are checked here; `dated` and `defaults`
 * are gated (admins) before their shape is read, and `defaults`, `when`, `afterId` need the
 * project's properties, so the service reads those in the contract's order.
 */
export class UpdatePropertyBody {
  @Keeps('property-name', (value) => (value === undefined ? undefined : readPropertyName(value, true)), { doc: { schema: NAME } })
  name?: string;

  @Keeps('showOnCard', (value) => (value === undefined ? undefined : readBoolean(value, 'showOnCard')), { doc: { schema: { type: 'boolean', description: 'Whether cards show the value.' } } })
  showOnCard?: boolean;

  @CheckedInService('dated', { type: 'boolean', description: 'A select only: its options carry a start, a target and a note (releases, sprints).' })
  dated?: unknown;

  @CheckedInService('defaults', {
    type: 'object',
    description: 'On the Type select: the values a new task of an option gets, by option id, then by property id.',
    additionalProperties: { type: 'object' },
  })
  defaults?: unknown;

  @CheckedInService('when', {
    type: ['object', 'null'],
    properties: { propertyId: { type: 'string', format: 'uuid' }, optionIds: { type: 'array', items: { type: 'string', format: 'uuid' } } },
    description: 'The property applies only to tasks holding one of these options of a select; null: to every task.',
  })
  when?: unknown;

  @CheckedInService('afterId', AFTER_ID('property'))
  afterId?: unknown;
}

/**
 * POST /properties/:propertyId/options and PATCH /options/:optionId. Whether the property takes
 * options (and dated fields) is known only once it is loaded, so the service reads every field.
 */
export class OptionBody {
  @CheckedInService('name', { type: 'string', description: 'Needed to add an option.', examples: ['In review'] })
  name?: unknown;

  @CheckedInService('color', { type: 'string', description: 'One of the palette\'s colours (a free one when left out).', examples: ['#4b8fbe'] })
  color?: unknown;

  @CheckedInService('startsOn', { ...DAY, description: 'Dated selects and iterations: the first day.' })
  startsOn?: unknown;

  @CheckedInService('targetOn', { ...DAY, description: 'Dated selects and iterations: the day it is due.' })
  targetOn?: unknown;

  @CheckedInService('note', { type: ['string', 'null'], description: 'Dated selects and iterations: a note in markdown.' })
  note?: unknown;

  @CheckedInService('shippedAt', { ...DAY, description: 'The day it shipped; null takes a shipped day back.' })
  shippedAt?: unknown;

  @CheckedInService('afterId', AFTER_ID('option'))
  afterId?: unknown;
}

/** POST /options/:optionId/ship: where the rest goes, and whether a release takes the strays. */
export class ShipBody {
  @FieldRule('ship-rest', (value) => refusalOf(() => readShipRest(value)), {
    schema: { type: 'string', enum: [...SHIP_RESTS], description: 'Where the unfinished tasks go: the next option, stay where they are, or lose the value.' },
    required: true,
  })
  rest: ShipRest;

  @FieldRule('ship-strays', (value) => refusalOf(() => readShipStrays(value)), {
    schema: { type: ['boolean', 'null'], description: 'A release: also take the done tasks that hold no release.' },
  })
  strays?: boolean | null;
}
