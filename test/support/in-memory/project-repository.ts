import { fail } from '@board/kernel';
import { Project, ProjectRepository, ProjectProps, ProjectSeed } from '@board/projects';

/** ProjectRepository in memory: projects as snapshots, and each project's properties (the seed's and those added). */
export class InMemoryProjectRepository extends ProjectRepository {
  readonly rows = new Map<string, ProjectProps>();
  readonly properties = new Map<string, { id: string; name: string; type: string; config: Record<string, unknown>; optionIds: string[] }[]>();

  async findById(id: string): Promise<Project | null> {
    const row = this.rows.get(id);
    return row ? Project.restore(structuredClone(row)) : null;
  }

  async keyTaken(key: string, exceptProjectId?: string): Promise<boolean> {
    return [...this.rows.values()].some((p) => p.key === key && p.id !== exceptProjectId);
  }

  async freeKey(bases: string[]): Promise<string | null> {
    for (const base of bases) if (!(await this.keyTaken(base))) return base;
    return null;
  }

  async insert(project: Project, seed: ProjectSeed): Promise<void> {
    if (await this.keyTaken(project.key)) fail('project.key_taken', { key: project.key });
    this.rows.set(project.id, structuredClone(project.snapshot) as ProjectProps);
    this.properties.set(
      project.id,
      [seed.status, ...seed.more].map((p) => ({ id: p.id, name: p.name, type: p.type, config: p.config, optionIds: p.options.map((o) => o.id) })),
    );
  }

  async save(project: Project): Promise<void> {
    this.rows.set(project.id, structuredClone(project.snapshot) as ProjectProps);
  }

  async delete(id: string): Promise<void> {
    this.rows.delete(id);
  }

  async propertyOptions(projectId: string, propertyId: string): Promise<{ type: string; optionIds: string[] } | null> {
    const property = this.properties.get(projectId)?.find((p) => p.id === propertyId);
    return property ? { type: property.type, optionIds: [...property.optionIds] } : null;
  }

  async hasProperty(projectId: string, match: 'dated_select' | 'iteration'): Promise<boolean> {
    return (this.properties.get(projectId) ?? []).some((p) => (match === 'iteration' ? p.type === 'iteration' : p.type === 'select' && p.config.dated === true));
  }

  async addProperty(projectId: string, property: { id: string; name: string; type: string; config: Record<string, unknown> }): Promise<void> {
    this.properties.set(projectId, [...(this.properties.get(projectId) ?? []), { ...property, optionIds: [] }]);
  }
}
