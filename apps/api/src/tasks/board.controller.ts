import { Controller, Get } from '@nestjs/common';
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
  read(@WriterOf() writer: Writer) {
    return this.board.read(writer);
  }

  /** Every shipped option, newest first; with releases and sprints off, an empty list. */
  @Member()
  @Get('changelog')
  async changelogOf(@WriterOf() writer: Writer) {
    return { changelog: await this.changelog.list(writer.projectId) };
  }

  @Member()
  @Get('settings')
  settings(@WriterOf() writer: Writer) {
    return this.board.settings(writer);
  }
}
