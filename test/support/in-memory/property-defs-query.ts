import type { PropertyDefsQuery } from '@board/persistence';
import { PropertyDef } from '@board/properties';

/** The property definitions read model over a spec's own store: its properties, and its members when it has some. */
export class InMemoryPropertyDefsQuery implements PropertyDefsQuery {
  constructor(
    private readonly defsOf: (projectId: string) => PropertyDef[],
    private readonly membersOf: (projectId: string) => Iterable<string> = () => [],
  ) {}

  async load(projectId: string): Promise<PropertyDef[]> {
    return this.defsOf(projectId);
  }

  async loadWithMembers(projectId: string): Promise<{ defs: PropertyDef[]; memberIds: Set<string> }> {
    return { defs: this.defsOf(projectId), memberIds: new Set(this.membersOf(projectId)) };
  }
}
