import { fail, parseId } from '@board/kernel';
import { cleanDefaults, DroppedValue, dropHiddenValues, findTypeProperty, isEmptyValue, normalizeValue, PropertyDef, StoredValue, TaskValues, ValueContext } from '@board/properties';

/** Reads a `values` body field: an object keyed by property ids of this project. */
export function readValuesMap(raw: unknown, defs: readonly PropertyDef[], context: ValueContext): Map<string, StoredValue> {
  const out = new Map<string, StoredValue>();
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) fail('task.values_not_object');
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const id = parseId(key, 'property');
    const def = defs.find((d) => d.id === id);
    if (!def) fail('property.not_in_project');
    out.set(id, normalizeValue(def, value, context));
  }
  return out;
}

/** Applies written values over a task's values, then the `when` rules. */
export function applyValues(
  current: Readonly<TaskValues>,
  written: ReadonlyMap<string, StoredValue>,
  defs: readonly PropertyDef[],
): { values: TaskValues; dropped: DroppedValue[] } {
  const next: TaskValues = { ...current };
  for (const [id, value] of written) {
    if (isEmptyValue(value)) delete next[id];
    else next[id] = value;
  }
  return dropHiddenValues(defs, next);
}

/** The `values` field of a create request, checked, with Type defaults and `when` rules applied. */
export function readCreateValues(raw: unknown, defs: readonly PropertyDef[], context: ValueContext): TaskValues {
  return valuesForCreate(readValuesMap(raw, defs, context), defs, context);
}

/** One sent value for the property `propertyId` of the project, checked. */
export function readOneValue(raw: unknown, defs: readonly PropertyDef[], propertyId: string, context: ValueContext): { def: PropertyDef; value: StoredValue } {
  const def = defs.find((d) => d.id === propertyId);
  if (!def) fail('property.not_in_project');
  return { def: def, value: normalizeValue(def, raw, context) };
}

/**
 * A new task's values: what was sent, then the Type's defaults for every property the request
 * did not send (an explicit value, null included, wins), then the `when` rules.
 */
export function valuesForCreate(sent: ReadonlyMap<string, StoredValue>, defs: readonly PropertyDef[], context: ValueContext): TaskValues {
  const values = new Map(sent);
  const type = findTypeProperty(defs);
  const typeValue = type ? sent.get(type.id) : undefined;
  if (type && typeof typeValue === 'string') {
    for (const def of defs) {
      if (sent.has(def.id)) continue;
      // Read afresh like config.defaults: only types that can carry one, only values that still read back.
      const fallback = cleanDefaults(def, type, context)[typeValue];
      if (fallback !== undefined) values.set(def.id, fallback);
    }
  }
  return applyValues({}, values, defs).values;
}
