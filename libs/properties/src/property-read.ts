import { PropertyConfigView, propertyConfigView } from './defaults';
import { OptionRecord, OptionView, optionView } from './option-view';
import { findTypeProperty, PropertyConfig, PropertyDef } from './property';
import { hasDatedOptions } from './property-type';
import { ValueContext } from './value';

/** A property as reads show it (the board, settings); the create answer adds projectId and createdAt. */
export interface PropertyRead {
  id: string;
  name: string;
  type: string;
  position: string;
  config: PropertyConfigView;
  options: OptionView[];
}

export interface PropertyRow {
  id: string;
  name: string;
  type: string;
  position: string;
  config: PropertyConfig | null;
}

/**
 * Shapes stored properties and options into the read shape, config read afresh (defaults that
 * no longer hold read as none). Pure given its rows; `context` only matters to person values.
 */
export function shapeProperties(rows: readonly PropertyRow[], options: readonly OptionRecord[], context?: ValueContext): PropertyRead[] {
  const byProperty = new Map<string, OptionRecord[]>();
  for (const o of options) {
    const list = byProperty.get(o.propertyId) ?? [];
    list.push(o);
    byProperty.set(o.propertyId, list);
  }
  const defs: PropertyDef[] = rows.map((r) => ({
    id: r.id, name: r.name, type: r.type, position: r.position, config: r.config ?? {},
    optionIds: new Set((byProperty.get(r.id) ?? []).map((o) => o.id)),
  }));
  const typeProperty = findTypeProperty(defs);
  return defs.map((d) => {
    const dated = hasDatedOptions(d.type, d.config);
    return {
      id: d.id,
      name: d.name,
      type: d.type,
      position: d.position,
      config: propertyConfigView(d, defs, typeProperty, context),
      options: (byProperty.get(d.id) ?? []).map((o) => optionView(o, dated)),
    };
  });
}

