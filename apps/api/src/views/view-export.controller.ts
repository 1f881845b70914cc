import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { encodeRfc5987 } from '@board/files';
import { wellFormed } from '@board/kernel';
import { Member, VIEW } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf, ResourceId } from '../auth/auth-context';
import { HeavyRead } from '../http/heavy-read.decorator';
import { ViewExportService } from './view-export.service';

@Controller()
export class ViewExportController {
  constructor(private readonly exports: ViewExportService) {}

  @Member(VIEW)
  @HeavyRead('export')
  @Get('views/:viewId/export.csv')
  async csv(@ProjectCallerOf() caller: ProjectCaller, @ResourceId() viewId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { name, csv } = await this.exports.csv(caller, viewId);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(`${name}.csv`))
      .header('cache-control', 'private, no-store');
    return csv;
  }
}

/**
 * A download's header: an ASCII fallback name and the exact one (RFC 6266, RFC 5987), always both,
 * since a view's name is anyone's text. Stored names are well formed; a header must never throw.
 */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(wellFormed(fileName))}`;
}
