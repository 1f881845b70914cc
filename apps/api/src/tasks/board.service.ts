import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { BoardQueries, TaskQueries } from '@board/persistence';
import { Writer } from '../auth/auth-context';

/** The board read: one answer with everything a board UI draws, in a fixed number of queries. */
@Injectable()
export class BoardService {
  constructor(
    private readonly board: BoardQueries,
    private readonly tasks: TaskQueries,
  ) {}

  async read(writer: Writer) {
    const settings = await this.load(writer);
    const { tasks, archived } = await this.tasks.board(writer.projectId, settings.project.key, settings.project.doneWhen);
    return { ...settings, tasks, archived, runs: [] };
  }

  /** Same as the board, but `tasks` holds only the three the card view preview draws, plus `taskCount`. */
  async settings(writer: Writer) {
    const settings = await this.load(writer);
    const { tasks, archived } = await this.tasks.board(writer.projectId, settings.project.key, settings.project.doneWhen);
    // "Same answer as the board": archived is the board's too, only `tasks` is cut to three.
    return { ...settings, tasks: tasks.slice(0, 3), taskCount: tasks.length, archived, runs: [] };
  }

  private async load(writer: Writer) {
    const settings = await this.board.settings(writer.projectId, writer.userId);
    if (!settings) fail('project.not_found');
    const views = settings!.views.map(({ cardView: _cardView, ...v }) => ({
      ...v,
      filters: v.filters ?? { rules: [] },
      // A person's own lens arrives with the views work; an agent always reads none.
      lens: { rules: [] },
      lensSort: null,
    }));
    return { ...settings!, views };
  }
}
