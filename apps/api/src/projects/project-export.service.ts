import { Injectable } from '@nestjs/common';
import { Clock, fail } from '@board/kernel';
import { ProjectExportQuery } from '@board/persistence';
import { ProjectCaller } from '../auth/auth-context';

/** What an export document says it is: an import reads these two before anything else. */
export const EXPORT_FORMAT = 'task-board-export';
export const EXPORT_VERSION = 1;

/** The document and the project's key, for the file's name. */
export interface ProjectExport {
  key: string;
  json: string;
}

@Injectable()
export class ProjectExportService {
  constructor(
    private readonly parts: ProjectExportQuery,
    private readonly clock: Clock,
  ) {}

  /**
   * The whole project as one JSON document (extensions.md § 3.4): every live, archived and
   * deleted task with what it owns, every run, every feed line and attachment's metadata. The
   * parts arrive as JSON text and are joined as text: a big project costs no parse and re-write.
   */
  async export(caller: ProjectCaller): Promise<ProjectExport> {
    const p = (await this.parts.parts(caller.projectId)) ?? fail('project.not_found');
    const head = JSON.stringify({ format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: this.clock.now().toISOString() }).slice(0, -1);
    const fields: [string, string][] = [
      ['project', p.project], ['properties', p.properties], ['views', p.views], ['cardView', p.cardView], ['rules', p.rules],
      ['tasks', p.tasks], ['runs', p.runs], ['activity', p.activity], ['attachments', p.attachments],
    ];
    const json = `${head},${fields.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`;
    return { key: p.key, json };
  }
}
