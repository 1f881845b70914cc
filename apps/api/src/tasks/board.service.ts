import { Injectable } from '@nestjs/common';
import { fail } from '@board/kernel';
import { BoardLists, BoardQuery, ChangelogQuery, RunQuery, TaskQuery } from '@board/persistence';
import { PropertyDef } from '@board/properties';
import { CardRows, orderCardRows, ViewRepository } from '@board/views';
import { RunsService } from '../runs/runs.service';
import { presentView } from '../views/view-presenter';
import { ProjectCaller } from '../auth/auth-context';
import { BoardCache } from './board-cache';

/**
 * The board read: one answer with everything a board UI draws, in a fixed number of queries.
 * Not a pure read: it first closes the project's runs whose lease ran out (the names say so).
 */
@Injectable()
export class BoardService {
  constructor(
    private readonly board: BoardQuery,
    private readonly tasks: TaskQuery,
    private readonly runs: RunsService,
    private readonly runQueries: RunQuery,
    private readonly views: ViewRepository,
    private readonly cache: BoardCache,
    private readonly shipped: ChangelogQuery,
  ) {}

  /** Every shipped option, newest first, with the tasks that shipped with it; with releases off, an empty list. */
  changelog(caller: ProjectCaller) {
    return this.shipped.list(caller.projectId);
  }

  /**
   * The board answer as JSON bytes, in pieces to be sent one after the other: the task lists come
   * from the cache while the project's rows are unchanged, and are sent from there as they are
   * (joining them into one buffer copied tens of megabytes per read of a large board).
   */
  async readBoardClosingOverdueRuns(caller: ProjectCaller): Promise<Buffer[]> {
    const { settings, runs, lists } = await this.partsClosingOverdueRuns(caller);
    return [
      text(`{${head(settings)},"tasks":`),
      lists.tasksJson,
      text(`,"archived":`),
      lists.archivedJson,
      text(`,${entry('runs', runs)}}`),
    ];
  }

  /** Same as the board, but `tasks` holds only the three the card view preview draws, plus `taskCount`. */
  async readSettingsClosingOverdueRuns(caller: ProjectCaller): Promise<Buffer[]> {
    const { settings, runs, lists } = await this.partsClosingOverdueRuns(caller);
    return [
      text(`{${head(settings)},"tasks":`),
      lists.firstThreeJson,
      text(`,"archived":`),
      lists.archivedJson,
      text(`,${entry('runs', runs)},"taskCount":${lists.taskCount}}`),
    ];
  }

  private async partsClosingOverdueRuns(caller: ProjectCaller) {
    // A board read closes this project's runs whose lease ran out (and rings for each).
    await this.runs.expireOverdue(caller.projectId);
    // The fingerprint is read before the lists: a write landing in between can only make the
    // stored lists newer than their stamp (a miss next time), never older. On a read replica too:
    // every statement of one read goes to the one server it was routed to (Database.replica), whose
    // replay only moves forward, or from a write on to the primary, which is newer still; so a
    // replica's older rows are kept under their own older stamp and never served for a newer one.
    const [settings, runs, fingerprint] = await Promise.all([
      this.load(caller),
      this.runQueries.openRuns(caller.projectId),
      this.tasks.boardFingerprint(caller.projectId),
    ]);
    const stamp = `${fingerprint}|${settings.project.key}|${JSON.stringify(settings.project.doneWhen)}`;
    const lists = this.cache.get(caller.projectId, stamp) ?? (await this.build(caller.projectId, stamp, settings.project.key, settings.project.doneWhen));
    return { settings, runs, lists };
  }

  private async build(projectId: string, stamp: string, key: string, doneWhen: Parameters<TaskQuery['boardLists']>[2]): Promise<BoardLists> {
    const lists = await this.tasks.boardLists(projectId, key, doneWhen, this.cache.latest(projectId));
    this.cache.put(projectId, { stamp, lists });
    return lists;
  }

  private async load(caller: ProjectCaller) {
    const [settings, views] = await Promise.all([
      this.board.settings(caller.projectId, caller.userId),
      this.views.list(caller.projectId, caller.userId),
    ]);
    if (!settings) fail('project.not_found');
    const defs: PropertyDef[] = settings.properties.map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
      position: p.position,
      config: p.config as PropertyDef['config'],
      optionIds: new Set(p.options.map((o) => o.id)),
    }));
    const order = defs.map((d) => d.id);
    // The project's card view is written only by the views service, with rows checked by `checkCardRows`.
    const projectRows = (settings.cardView.rows ?? {}) as CardRows;
    return {
      ...settings,
      views: views.map((v) => presentView(v, defs, caller.kind, projectRows)),
      cardView: { rows: orderCardRows(projectRows, order) },
    };
  }
}

const entry = (key: string, value: unknown): string => `${JSON.stringify(key)}:${JSON.stringify(value)}`;
const text = (s: string): Buffer => Buffer.from(s, 'utf8');

/** The keys before `tasks`, in the contract's order. */
function head(s: { project: unknown; invites: unknown; members: unknown; properties: unknown; views: unknown; cardView: unknown }): string {
  return [
    entry('project', s.project),
    entry('invites', s.invites),
    entry('members', s.members),
    entry('properties', s.properties),
    entry('views', s.views),
    entry('cardView', s.cardView),
  ].join(',');
}
