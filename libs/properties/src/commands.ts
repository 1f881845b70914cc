import { fail, InTurn, inTurn } from '@board/kernel';
import type { DefaultsAsked } from './defaults';
import { isHexColor, readOptionName } from './option-name';
import type { OptionRecord } from './option-view';
import type { WhenAsked } from './property-rules';
import type { PropertyType } from './property-type';

/** What a new property asks for, as its request DTO read it: its first options are read with its name, which their refusals name. */
export interface PropertyCreate {
  name: string;
  type: PropertyType;
  options: string[];
}

/**
 * A change of a property as its request DTO read it; what is absent stays. The contract checks
 * `dated` and `defaults` after their gate (owner and admins) and against the property's type,
 * and `defaults`, `when` and `afterId` against the project's properties, in its order: their
 * refusals wait their turn.
 */
export interface PropertyChange {
  name?: string;
  showOnCard?: boolean;
  dated?: InTurn<boolean>;
  defaults?: DefaultsAsked;
  when?: InTurn<WhenAsked | null>;
  afterId?: InTurn<string | null>;
}

/**
 * An option's fields as its request DTO read them, to add one or to change one; what is absent
 * stays. Whether the property takes options and dated fields is known once it is loaded, and a
 * name's clash is stored state, so every refusal waits its turn. A colour that is not one is
 * refused by a change and ignored by an add (which picks a free one).
 */
export interface OptionAsked {
  name?: InTurn<string>;
  color?: InTurn<string>;
  startsOn?: InTurn<string | null>;
  targetOn?: InTurn<string | null>;
  note?: InTurn<string | null>;
  /** null takes a shipped day back (owner and admins); any other value is not read. */
  shippedAt?: null;
  afterId?: InTurn<string | null>;
}

/** An option's colour: `#rrggbb`, kept in lower case. */
export function readOptionColor(value: unknown): string {
  if (!isHexColor(value)) fail('option.color_invalid');
  return value.toLowerCase();
}

/** A new option's name: the one sent, or the refusal of a missing one. */
export const newOptionName = (sent: InTurn<string> | undefined): string => (sent === undefined ? readOptionName(undefined, true) : inTurn(sent));

/** startsOn, targetOn and note of a dated option: only the keys that were sent. */
export function datedFields(asked: OptionAsked): Partial<Pick<OptionRecord, 'startsOn' | 'targetOn' | 'note'>> {
  const fields: Partial<Pick<OptionRecord, 'startsOn' | 'targetOn' | 'note'>> = {};
  if (asked.startsOn !== undefined) fields.startsOn = inTurn(asked.startsOn);
  if (asked.targetOn !== undefined) fields.targetOn = inTurn(asked.targetOn);
  if (asked.note !== undefined) fields.note = inTurn(asked.note);
  return fields;
}
