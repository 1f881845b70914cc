import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { BoardQueries, RunQueries, TaskQueries, ViewStore } from '@board/persistence';
import { PropertyDef } from '@board/properties';
import { orderCardRows } from '@board/views';
import { RunsService } from '../runs/runs.service';
import { presentView } from '../views/view-presenter';
import { Writer } from '../auth/auth-context';

/** The board read: one answer with everything a board UI draws, in a fixed number of queries. */
@Injectable()
export class BoardService {
  constructor(
    private readonly board: BoardQueries,
    private readonly tasks: TaskQueries,
    private readonly runs: RunsService,
    private readonly runQueries: RunQueries,
    private readonly views: ViewStore,
  ) {}

  async read(writer: Writer) {
    // A board read closes this project's runs whose lease ran out (and rings for each).
    await this.runs.expireOverdue(writer.projectId);
    const settings = await this.load(writer);
    const runs = await this.runQueries.openRuns(writer.projectId);
    const { tasks, archived } = await this.tasks.board(writer.projectId, settings.project.key, settings.project.doneWhen);
    return { ...settings, tasks, archived, runs };
  }

  /** Same as the board, but `tasks` holds only the three the card view preview draws, plus `taskCount`. */
  async settings(writer: Writer) {
    // "Same answer as the board": only `tasks` is cut to three.
    const board = await this.read(writer);
    return { ...board, tasks: board.tasks.slice(0, 3), taskCount: board.tasks.length };
  }

  private async load(writer: Writer) {
    const [settings, views] = await Promise.all([
      this.board.settings(writer.projectId, writer.userId),
      this.views.list(writer.projectId, writer.userId),
    ]);
    if (!settings) fail('project.not_found');
    const defs: PropertyDef[] = settings!.properties.map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
      position: p.position,
      config: p.config as PropertyDef['config'],
      optionIds: new Set(p.options.map((o) => o.id)),
    }));
    const order = defs.map((d) => d.id);
    return {
      ...settings!,
      views: views.map((v) => presentView(v, defs, writer.kind, settings!.cardView.rows ?? {})),
      cardView: { rows: orderCardRows(settings!.cardView.rows as never, order) },
    };
  }
}
