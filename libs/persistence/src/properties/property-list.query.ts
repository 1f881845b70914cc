import type { PropertyRead } from '@board/properties';

/** A project's properties with their options, in display order, as answers show them. */
export abstract class PropertyListQuery {
  abstract list(projectId: string): Promise<PropertyRead[]>;
}
