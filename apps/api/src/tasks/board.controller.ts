import { Readable } from 'node:stream';
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Member } from '../auth/access.decorator';
import { ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { BoardService } from './board.service';
import { ReplicaRead } from '../http/replica-read.decorator';

@Controller('projects/:projectId')
export class BoardController {
  constructor(private readonly board: BoardService) {}

  @Member()
  @ReplicaRead()
  @Get('board')
  async read(@ProjectCallerOf() caller: ProjectCaller, @Res({ passthrough: true }) reply: FastifyReply) {
    // Already JSON text (the task lists may come from the cache): sent as is.
    return jsonPieces(reply, await this.board.readBoardClosingOverdueRuns(caller));
  }

  /** Every shipped option, newest first, with the tasks that shipped with it; with releases off, an empty list. */
  @Member()
  @Get('changelog')
  async changelogOf(@ProjectCallerOf() caller: ProjectCaller) {
    return { changelog: await this.board.changelog(caller) };
  }

  @Member()
  @ReplicaRead()
  @Get('settings')
  async settings(@ProjectCallerOf() caller: ProjectCaller, @Res({ passthrough: true }) reply: FastifyReply) {
    return jsonPieces(reply, await this.board.readSettingsClosingOverdueRuns(caller));
  }
}

/** JSON already written, in pieces: streamed one after the other, with its length announced. */
function jsonPieces(reply: FastifyReply, pieces: Buffer[]): Readable {
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('content-length', pieces.reduce((n, p) => n + p.length, 0));
  return Readable.from(pieces);
}
