import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { assertAdminPerson } from '@board/properties';
import { HumanMember } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { IMPORT_BODY_LIMIT } from '../http/body-limit';
import { HeavyRead } from '../http/heavy-read.decorator';
import { BoardExportImportService } from './board-export-import.service';
import { readImportBody } from './imports.dto';
import { ImportsService } from './imports.service';

/** The {what} of "Only the owner or an admin can {what}." */
const WHAT = 'import tasks';

/**
 * Importing a Trello board export, or a project export (extensions.md § 3.4) into a project
 * without tasks: owner and admins, as a person (an agent token gets "Only a person can do
 * this.", a member the owner-and-admin sentence). The body may be up to 10 MB.
 */
@Controller('projects/:projectId/import')
export class ImportsController {
  constructor(
    private readonly imports: ImportsService,
    private readonly exports: BoardExportImportService,
  ) {}

  @HumanMember()
  @RouteConfig({ bodyLimit: IMPORT_BODY_LIMIT })
  @HeavyRead('import')
  @Post('preview')
  @HttpCode(200)
  async preview(@ProjectCallerOf() caller: ProjectCaller, @Body() body: unknown) {
    assertAdminPerson(caller, WHAT);
    const read = readImportBody(body);
    // `kind` says which document was read, so a page can tell a Trello export from a project export.
    if (read.kind === 'export') return { preview: await this.exports.preview(caller, read.doc) };
    return { preview: { ...(await this.imports.preview(caller, read.board)), kind: 'trello' } };
  }

  @HumanMember()
  @RouteConfig({ bodyLimit: IMPORT_BODY_LIMIT })
  @HeavyRead('import')
  @Post()
  @HttpCode(200)
  run(@ProjectCallerOf() caller: ProjectCaller, @Body() body: unknown) {
    assertAdminPerson(caller, WHAT);
    const read = readImportBody(body);
    return read.kind === 'export' ? this.exports.import(caller, read.doc) : this.imports.import(caller, read.board);
  }
}

