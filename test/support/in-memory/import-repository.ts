import { BoardExportPlan, BoardExportRepository, ImportHead, ImportPlan, ImportRepository } from '@board/imports';

/** ImportRepository in memory: the heads of the projects the spec sets, and every plan written. */
export class InMemoryImportRepository extends ImportRepository {
  readonly heads = new Map<string, Omit<ImportHead, 'imported'> & { imported: Map<string, number> }>();
  readonly written: { projectId: string; actorId: string; plan: ImportPlan }[] = [];

  async head(projectId: string, sourceIds: string[]): Promise<ImportHead | null> {
    const head = this.heads.get(projectId);
    if (!head) return null;
    return { ...head, imported: new Map([...head.imported].filter(([id]) => sourceIds.includes(id))) };
  }

  async write(projectId: string, actorId: string, plan: ImportPlan): Promise<void> {
    this.written.push({ projectId, actorId, plan });
  }
}

/** BoardExportRepository in memory: the heads of the projects the spec sets, and every plan written. */
export class InMemoryBoardExportRepository extends BoardExportRepository {
  readonly heads = new Map<string, { members: { id: string; email: string | null }[]; hasTasks: boolean }>();
  readonly written: { projectId: string; plan: BoardExportPlan }[] = [];

  async head(projectId: string): Promise<{ members: { id: string; email: string | null }[]; hasTasks: boolean } | null> {
    const head = this.heads.get(projectId);
    return head ? structuredClone(head) : null;
  }

  async write(projectId: string, plan: BoardExportPlan): Promise<void> {
    this.written.push({ projectId, plan });
  }
}
