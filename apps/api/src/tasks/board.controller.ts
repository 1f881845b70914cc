import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Member } from '../auth/access.decorator';
import { Writer, WriterOf } from '../auth/auth-context';
import { ChangelogQuery } from '@board/persistence';
import { BoardService } from './board.service';

@Controller('projects/:projectId')
export class BoardController {
  constructor(
    private readonly board: BoardService,
    private readonly changelog: ChangelogQuery,
  ) {}

  @Member()
  @Get('board')
  async read(@WriterOf() writer: Writer, @Res({ passthrough: true }) reply: FastifyReply) {
    // Already JSON text (the task lists may come from the cache): sent as is.
    reply.header('content-type', 'application/json; charset=utf-8');
    return this.board.readBoardClosingOverdueRuns(writer);
  }

  /** Every shipped option, newest first, with the tasks that shipped with it; with releases off, an empty list. */
  @Member()
  @Get('changelog')
  async changelogOf(@WriterOf() writer: Writer) {
    return { changelog: await this.changelog.list(writer.projectId) };
  }

  @Member()
  @Get('settings')
  async settings(@WriterOf() writer: Writer, @Res({ passthrough: true }) reply: FastifyReply) {
    reply.header('content-type', 'application/json; charset=utf-8');
    return this.board.readSettingsClosingOverdueRuns(writer);
  }
}
