/** What the value validator and the visibility rules need to know of a property. */
export interface PropertyDef {
  id: string;
  name: string;
  type: string;
  position: string;
  config: PropertyConfig;
  /** Option ids of this property (select, multi_select, iteration). */
  optionIds: ReadonlySet<string>;
}

export interface WhenRule {
  propertyId: string;
  optionIds: string[];
}

export interface PropertyConfig {
  dated?: boolean;
  defaults?: Record<string, unknown>;
  when?: WhenRule | null;
  [key: string]: unknown;
}

/** The project's Type: its select property named Type (case and spaces ignored), first in display order. */
export function findTypeProperty(properties: readonly PropertyDef[]): PropertyDef | null {
  const sorted = [...properties].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  return sorted.find((p) => p.type === 'select' && p.name.trim().toLowerCase() === 'type') ?? null;
}
