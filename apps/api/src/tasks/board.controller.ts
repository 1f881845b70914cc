import { Controller, Get } from '@nestjs/common';
import { Member } from '../auth/access.decorator';
import { Writer, WriterOf } from '../auth/auth-context';
import { BoardService } from './board.service';

@Controller('projects/:projectId')
export class BoardController {
  constructor(private readonly board: BoardService) {}

  @Member()
  @Get('board')
  read(@WriterOf() writer: Writer) {
    return this.board.read(writer);
  }

  @Member()
  @Get('settings')
  settings(@WriterOf() writer: Writer) {
    return this.board.settings(writer);
  }
}
