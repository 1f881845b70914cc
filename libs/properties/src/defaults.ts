import { DomainError, fail, InTurn, inTurn, isUuid } from '@board/kernel';
import { canCarryDefault } from './property-type';
import { PropertyDef, WhenRule } from './property';
import { isEmptyValue, normalizeValue, StoredValue, ValueContext } from './value';

const NO_MEMBERS: ValueContext = { memberIds: new Set() };

/**
 * A property's per-Type defaults as they read now: only keys that are still options of the
 * project's Type, only values that still pass the value validator (a deleted option drops the
 * whole default), and nothing at all without a Type or on a type that cannot carry a default.
 * `context` matters only to person values, which never carry a default; it may be left out.
 */
export function cleanDefaults(
  property: PropertyDef,
  typeProperty: PropertyDef | null,
  context: ValueContext = NO_MEMBERS,
): Record<string, StoredValue> {
  const stored = property.config.defaults;
  const clean: Record<string, StoredValue> = {};
  if (!typeProperty || !canCarryDefault(property.type) || !stored || typeof stored !== 'object' || Array.isArray(stored)) return clean;
  for (const [key, raw] of Object.entries(stored)) {
    if (!typeProperty.optionIds.has(key)) continue;
    let value: StoredValue;
    try {
      value = normalizeValue(property, raw, context);
    } catch (error) {
      if (error instanceof DomainError) continue;
      throw error;
    }
    if (!isEmptyValue(value)) clean[key] = value;
  }
  return clean;
}

/**
 * The `defaults` of a property PATCH as its request DTO read it: `{ <typeOptionId>: value | null }`
 * as entries, each key in lower case (null when it is not an id) with its value as sent. What a
 * value means is the property's type (the value validator) and which keys hold is the project's
 * Type: both are stored, so `checkDefaultsPatch` judges them. The contract refuses a property that
 * cannot carry defaults before the shape, so the shape's refusal waits its turn.
 */
export type DefaultsAsked = InTurn<ReadonlyArray<{ key: string | null; value: unknown }>>;

/** The `defaults` field as sent: an object (anything else is refused), as entries. */
export function readDefaultsAsked(raw: unknown): ReadonlyArray<{ key: string | null; value: unknown }> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail('property.default_key');
  return Object.entries(raw as Record<string, unknown>).map(([key, value]) => ({ key: isUuid(key) ? key.toLowerCase() : null, value }));
}

/**
 * A defaults patch against the property and the project's Type: each key with its stored value,
 * null meaning "remove this key". The caller checks the gate first.
 */
export function checkDefaultsPatch(
  property: PropertyDef,
  typeProperty: PropertyDef | null,
  asked: DefaultsAsked,
  context: ValueContext = NO_MEMBERS,
): Record<string, StoredValue> {
  if (!canCarryDefault(property.type)) fail('property.no_defaults', { name: property.name });
  const entries = inTurn(asked);
  if (!typeProperty) fail('property.default_key');
  const patch: Record<string, StoredValue> = {};
  for (const { key, value: sent } of entries) {
    if (key === null || !typeProperty.optionIds.has(key)) fail('property.default_key');
    const value = sent === null ? null : normalizeValue(property, sent, context);
    // A value that clears (null, "", []) removes the default for that type.
    patch[key] = isEmptyValue(value) ? null : value;
  }
  return patch;
}

/** Merges a defaults patch into the stored map, per key; null removes a key. */
export function mergeDefaults(stored: unknown, patch: Readonly<Record<string, StoredValue>>): Record<string, unknown> {
  const next: Record<string, unknown> = stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as object) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** What a read shows of a property's config. */
export interface PropertyConfigView {
  /** Select only. */
  dated?: boolean;
  defaults: Record<string, StoredValue>;
  when: WhenRule | null;
}

/**
 * The config a read shows: `dated` (select only), `defaults` read afresh (see cleanDefaults) and
 * the `when` rule (null when unset or when its select is gone). `properties` is the whole
 * project's list (the Type and the when-select are found in it).
 */
export function propertyConfigView(
  property: PropertyDef,
  properties: readonly PropertyDef[],
  typeProperty: PropertyDef | null,
  context: ValueContext = NO_MEMBERS,
): PropertyConfigView {
  const when = property.config.when;
  const live = when && typeof when === 'object' && properties.some((p) => p.id === when.propertyId);
  return {
    ...(property.type === 'select' ? { dated: property.config.dated === true } : {}),
    defaults: cleanDefaults(property, typeProperty, context),
    when: live ? { propertyId: when.propertyId, optionIds: [...when.optionIds] } : null,
  };
}
