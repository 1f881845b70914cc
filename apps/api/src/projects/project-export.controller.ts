import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Admin } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { HeavyRead } from '../http/heavy-read.decorator';
import { ProjectExportService } from './project-export.service';

@Controller()
export class ProjectExportController {
  constructor(private readonly exports: ProjectExportService) {}

  @Admin('export the project')
  @HeavyRead('export')
  @Get('projects/:projectId/export')
  async export(@ProjectCallerOf() caller: ProjectCaller, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { key, json } = await this.exports.export(caller);
    // A download on the page (Settings › Export); API clients read the same JSON body.
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${key}-export.json"`)
      .header('cache-control', 'private, no-store');
    return json;
  }
}
