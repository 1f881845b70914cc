import { hasOptions, OPTIONS_ON_CREATE_MAX, PropertyType, readBoolean, readInitialOptions, readPropertyName, readPropertyType } from '@board/properties';
import { readShipRest, readShipStrays, ShipRest } from '@board/shipping';
import { CheckedInService, FieldRule, OptionalField, refusalOf } from '../http/dto/field-rules';

/** POST /projects/:projectId/properties: name, type, then the first options of a type that has them. */
export class CreatePropertyBody {
  @FieldRule('property-name', (value) => refusalOf(() => readPropertyName(value, true)))
  name: unknown;

  @FieldRule('property-type', (value) => refusalOf(() => readPropertyType(value)))
  type: unknown;

  @FieldRule('property-options', (value, dto) => {
    const { name, type } = dto as CreatePropertyBody;
    return hasOptions(type as PropertyType) ? refusalOf(() => readInitialOptions(readPropertyName(name, true), value, OPTIONS_ON_CREATE_MAX)) : null;
  })
  options?: unknown;
}

/**
 * PATCH /properties/:propertyId. Name and showOnCard are checked here; `dated` and `defaults`
 * are gated (admins) before their shape is read, and `defaults`, `when`, `afterId` need the
 * project's properties, so the service reads those in the contract's order.
 */
export class UpdatePropertyBody {
  @OptionalField('property-name', (value) => readPropertyName(value, true))
  name?: unknown;

  @OptionalField('showOnCard', (value) => readBoolean(value, 'showOnCard'))
  showOnCard?: unknown;

  @CheckedInService('dated')
  dated?: unknown;

  @CheckedInService('defaults')
  defaults?: unknown;

  @CheckedInService('when')
  when?: unknown;

  @CheckedInService('afterId')
  afterId?: unknown;
}

/**
 * POST /properties/:propertyId/options and PATCH /options/:optionId. Whether the property takes
 * options (and dated fields) is known only once it is loaded, so the service reads every field.
 */
export class OptionBody {
  @CheckedInService('name')
  name?: unknown;

  @CheckedInService('color')
  color?: unknown;

  @CheckedInService('startsOn')
  startsOn?: unknown;

  @CheckedInService('targetOn')
  targetOn?: unknown;

  @CheckedInService('note')
  note?: unknown;

  @CheckedInService('shippedAt')
  shippedAt?: unknown;

  @CheckedInService('afterId')
  afterId?: unknown;
}

/** POST /options/:optionId/ship: where the rest goes, and whether a release takes the strays. */
export class ShipBody {
  @FieldRule('ship-rest', (value) => refusalOf(() => readShipRest(value)))
  rest: ShipRest;

  @FieldRule('ship-strays', (value) => refusalOf(() => readShipStrays(value)))
  strays?: boolean | null;
}
