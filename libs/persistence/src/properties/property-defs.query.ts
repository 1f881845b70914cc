import type { PropertyDef } from '@board/properties';

/** A project's properties with their option ids, in display order: what value checks need. */
export abstract class PropertyDefsQuery {
  abstract load(projectId: string): Promise<PropertyDef[]>;

  /** The properties (as `load`) and the user ids of the project's members, agents included: what every value write checks against. */
  abstract loadWithMembers(projectId: string): Promise<{ defs: PropertyDef[]; memberIds: Set<string> }>;
}
