import { Body, Controller, Delete, Get, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ATTACHMENT, FileMember, TASK } from '../auth/access.decorator';
import { ProjectScope, ResourceId, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { UploadRequestBody } from './files.dto';
import { FilesService } from './files.service';

/**
 * Files on tasks (interface.md › Endpoints › Files): any member, agents included; every route
 * answers 503 while the server has no bucket (the guard checks it first).
 */
@Controller()
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @FileMember(TASK)
  @Get('tasks/:taskId/attachments')
  list(@ProjectScope() project: { id: string }, @ResourceId() taskId: string) {
    return this.files.list(project.id, taskId);
  }

  @FileMember(TASK)
  @Post('tasks/:taskId/attachments')
  @HttpCode(201)
  requestUpload(@ResourceId() taskId: string, @ProjectCallerOf() caller: ProjectCaller, @Body() body: UploadRequestBody) {
    return this.files.requestUpload(caller, taskId, body);
  }

  @FileMember(ATTACHMENT)
  @Post('attachments/:attachmentId/ready')
  @HttpCode(200)
  confirm(@ResourceId() id: string, @ProjectCallerOf() caller: ProjectCaller) {
    return this.files.confirm(caller, id);
  }

  /** 302 to a signed bucket URL; neither the redirect nor the URL (it carries a signature) may be kept. */
  @FileMember(ATTACHMENT)
  @Get('attachments/:attachmentId')
  async read(@ProjectScope() project: { id: string }, @ResourceId() id: string, @Res() reply: FastifyReply) {
    const url = await this.files.readUrl(project.id, id);
    await reply.status(302).header('location', url).header('cache-control', 'private, no-store').send();
  }

  @FileMember(ATTACHMENT)
  @Delete('attachments/:attachmentId')
  async remove(@ResourceId() id: string, @ProjectCallerOf() caller: ProjectCaller) {
    await this.files.remove(caller, id);
    return { ok: true };
  }
}
