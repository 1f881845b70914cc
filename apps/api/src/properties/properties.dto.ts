import { InTurn, parseId } from '@board/kernel';
import {
  DefaultsAsked, hasOptions, OptionAsked, OPTIONS_ON_CREATE_MAX, PROPERTY_NAME_MAX, PROPERTY_TYPES, PropertyChange, PropertyCreate, PropertyType, readBoolean,
  readDefaultsAsked, readInitialOptions, readOptionColor, readOptionDay, readOptionName, readOptionNote, readPropertyName, readPropertyType, readWhenAsked, WhenAsked,
} from '@board/properties';
import { readShipRest, readShipStrays, SHIP_RESTS, ShipRequest, ShipRest } from '@board/shipping';
import { Keeps, KeepsInTurn } from '../http/dto/field-rules';

/** POST /projects/:projectId/properties: name, type, then the first options of a type that has them. */
const NAME = { type: 'string', maxLength: PROPERTY_NAME_MAX, examples: ['Priority'] };
const DAY = { type: ['string', 'null'], format: 'date', description: 'A day, YYYY-MM-DD; null clears it.' };
const AFTER_ID = (what: string) => ({ type: ['string', 'null'], format: 'uuid', description: `Put it after this ${what} (null: first).` });

export class CreatePropertyBody implements PropertyCreate {
  @Keeps('property-name', (value) => readPropertyName(value, true), { doc: { schema: NAME, required: true } })
  name: string;

  @Keeps('property-type', readPropertyType, { doc: { schema: { type: 'string', enum: [...PROPERTY_TYPES] }, required: true } })
  type: PropertyType;

  /** None for a type without options. */
  @Keeps('property-options', (value, dto) => {
    const { name, type } = dto as CreatePropertyBody;
    // Name and type are read (and passed) by now: the fields are checked in order.
    return hasOptions(type) ? readInitialOptions(name, value, OPTIONS_ON_CREATE_MAX) : [];
  }, {
    doc: {
      schema: {
        type: 'array',
        items: { type: 'string' },
        maxItems: OPTIONS_ON_CREATE_MAX,
        description: 'The first options, by name, for a select, multi-select or iteration.',
        examples: [['Urgent', 'High', 'Low']],
      },
    },
  })
  options: string[];
}

/**
 * PATCH /properties/:propertyId. Name and showOnCard are refused here; `dated` and `defaults` are
 * gated (admins) before their shape is judged, and `defaults`, `when` and `afterId` need the
 * project's properties: they are read here too, and refused in their turn (`PropertyChange`).
 */
export class UpdatePropertyBody implements PropertyChange {
  @Keeps('property-name', (value) => (value === undefined ? undefined : readPropertyName(value, true)), { doc: { schema: NAME } })
  name?: string;

  @Keeps('showOnCard', (value) => (value === undefined ? undefined : readBoolean(value, 'showOnCard')), { doc: { schema: { type: 'boolean', description: 'Whether cards show the value.' } } })
  showOnCard?: boolean;

  @KeepsInTurn('dated', (value) => readBoolean(value, 'dated'), {
    doc: { schema: { type: 'boolean', description: 'A select only: its options carry a start, a target and a note (releases, sprints).' } },
  })
  dated?: InTurn<boolean>;

  @KeepsInTurn('defaults', readDefaultsAsked, {
    doc: {
      schema: {
        type: 'object',
        description: 'On the Type select: the values a new task of an option gets, by option id, then by property id.',
        additionalProperties: { type: 'object' },
      },
    },
  })
  defaults?: DefaultsAsked;

  @KeepsInTurn('when', readWhenAsked, {
    doc: {
      schema: {
        type: ['object', 'null'],
        properties: { propertyId: { type: 'string', format: 'uuid' }, optionIds: { type: 'array', items: { type: 'string', format: 'uuid' } } },
        description: 'The property applies only to tasks holding one of these options of a select; null: to every task.',
      },
    },
  })
  when?: InTurn<WhenAsked | null>;

  @KeepsInTurn('afterId', (value) => (value === null ? null : parseId(value, 'property')), { doc: { schema: AFTER_ID('property') } })
  afterId?: InTurn<string | null>;
}

/**
 * POST /properties/:propertyId/options and PATCH /options/:optionId. Whether the property takes
 * options (and dated fields) is known only once it is loaded: every field is read here and refused
 * in its turn (`OptionAsked`).
 */
export class OptionBody implements OptionAsked {
  @KeepsInTurn('name', (value) => readOptionName(value, true), { doc: { schema: { type: 'string', description: 'Needed to add an option.', examples: ['In review'] } } })
  name?: InTurn<string>;

  @KeepsInTurn('color', readOptionColor, { doc: { schema: { type: 'string', description: 'One of the palette\'s colours (a free one when left out).', examples: ['#4b8fbe'] } } })
  color?: InTurn<string>;

  @KeepsInTurn('startsOn', (value) => readOptionDay(value, 'startsOn'), { doc: { schema: { ...DAY, description: 'Dated selects and iterations: the first day.' } } })
  startsOn?: InTurn<string | null>;

  @KeepsInTurn('targetOn', (value) => readOptionDay(value, 'targetOn'), { doc: { schema: { ...DAY, description: 'Dated selects and iterations: the day it is due.' } } })
  targetOn?: InTurn<string | null>;

  @KeepsInTurn('note', (value) => readOptionNote(value), { doc: { schema: { type: ['string', 'null'], description: 'Dated selects and iterations: a note in markdown.' } } })
  note?: InTurn<string | null>;

  /** Only null is read: it takes a shipped day back. */
  @Keeps('shippedAt', (value) => (value === null ? null : undefined), { doc: { schema: { ...DAY, description: 'The day it shipped; null takes a shipped day back.' } } })
  shippedAt?: null;

  @KeepsInTurn('afterId', (value) => (value === null ? null : parseId(value, 'option')), { doc: { schema: AFTER_ID('option') } })
  afterId?: InTurn<string | null>;
}

/** POST /options/:optionId/ship: where the rest goes, and whether a release takes the strays. */
export class ShipBody implements ShipRequest {
  @Keeps('ship-rest', readShipRest, {
    doc: {
      schema: { type: 'string', enum: [...SHIP_RESTS], description: 'Where the unfinished tasks go: the next option, stay where they are, or lose the value.' },
      required: true,
    },
  })
  rest: ShipRest;

  /** Absent or null: no. */
  @Keeps('ship-strays', readShipStrays, { doc: { schema: { type: ['boolean', 'null'], description: 'A release: also take the done tasks that hold no release.' } } })
  strays: boolean;
}
