import { PropertyDef } from './property';
import { TaskValues } from './value';

export interface DroppedValue {
  propertyId: string;
  name: string;
}

/**
 * Is `property` hidden for a task holding `values`? A property with a `when` rule shows only
 * while its select holds one of the named options. A rule naming a property that is gone
 * hides nothing.
 */
export function isHidden(property: PropertyDef, values: Readonly<TaskValues>, byId: ReadonlyMap<string, PropertyDef>): boolean {
  const when = property.config.when;
  if (!when || !byId.has(when.propertyId)) return false;
  const current = values[when.propertyId];
  return !(typeof current === 'string' && when.optionIds.includes(current));
}

/**
 * Deletes the values of every property the task no longer shows, repeating until nothing more
 * hides (a dropped select can hide the properties that depend on it). Answers the new values and
 * what was dropped, in display order.
 */
export function dropHiddenValues(
  properties: readonly PropertyDef[],
  values: Readonly<TaskValues>,
): { values: TaskValues; dropped: DroppedValue[] } {
  const byId = new Map(properties.map((p) => [p.id, p]));
  const next: TaskValues = { ...values };
  const droppedIds = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of properties) {
      if (p.id in next && isHidden(p, next, byId)) {
        delete next[p.id];
        droppedIds.add(p.id);
        changed = true;
      }
    }
  }
  // Read back through `properties`, so what was dropped comes in display order.
  const dropped = properties.filter((p) => droppedIds.has(p.id)).map((p): DroppedValue => ({ propertyId: p.id, name: p.name }));
  return { values: next, dropped };
}
