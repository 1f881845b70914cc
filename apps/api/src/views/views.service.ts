import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { cleanFilters, cleanSort } from '@board/filters';
import { fail, inTurn, InTurn, notice, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { ProjectFactsQuery, PropertyDefsQuery, TaskQuery, ViewTaskPageQuery } from '@board/persistence';
import { PropertyDef } from '@board/properties';
import {
  assertGrouping, assertLensFits, CardRows, CardRowsAsked, checkCardRows, LensAsked, orderCardRows, ViewChange, ViewCreate, ViewKind, ViewRecord, ViewRepository,
} from '@board/views';
import { ProjectCaller } from '../auth/auth-context';
import { presentView } from './view-presenter';

@Injectable()
export class ViewsService {
  constructor(
    private readonly views: ViewRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly tasks: TaskQuery,
    private readonly facts: ProjectFactsQuery,
    private readonly uow: UnitOfWork,
    private readonly pages: ViewTaskPageQuery,
  ) {}

  /** Agents may create views; a list may remember a grouping it does not read. */
  async create(caller: ProjectCaller, asked: ViewCreate) {
    const { name, kind } = asked;
    const id = randomUUID();
    return this.uow.write(
      async () => {
        const defs = await this.defs.load(caller.projectId);
        const group = this.groupOf(asked.groupById, defs);
        assertGrouping(kind, group, true);
        await this.views.insert({ id, projectId: caller.projectId, name, kind, groupById: group?.id ?? null, filters: { rules: [] }, sort: null });
        return withEvents(await this.present(caller, id, defs), this.ring(caller));
      },
      { lockProject: caller.projectId },
    );
  }

  async update(caller: ProjectCaller, viewId: string, change: ViewChange) {
    return this.uow.write(
      async () => {
        const defs = await this.defs.load(caller.projectId);
        const view = await this.load(caller, viewId, true);
        const before = JSON.stringify(view);
        if (change.name !== undefined) view.name = change.name;
        if (change.kind !== undefined) view.kind = change.kind;
        if (change.groupById !== undefined) view.groupById = this.groupOf(change.groupById, defs)?.id ?? null;
        if (change.filters !== undefined) {
          // The shared rules are a person's to write; agents may rename, regroup and sort.
          if (caller.kind !== 'human') fail('gate.human');
          view.filters = cleanFilters(change.filters, { properties: defs });
        }
        if (change.sort !== undefined) view.sort = cleanSort(change.sort, defs);
        if (change.afterId !== undefined) {
          const afterId = inTurn(change.afterId);
          view.position = await this.views.rankAfter(caller.projectId, afterId, view.id);
        }
        const group = view.groupById ? (defs.find((d) => d.id === view.groupById) ?? null) : null;
        assertGrouping(view.kind as ViewKind, group, false);
        if (JSON.stringify(view) === before) return silent(await this.present(caller, view.id, defs));
        await this.views.save(view);
        return withEvents(await this.present(caller, view.id, defs), this.ring(caller));
      },
      { lockProject: caller.projectId },
    );
  }

  async remove(caller: ProjectCaller, viewId: string): Promise<void> {
    await this.uow.write(
      async () => {
        const view = await this.load(caller, viewId, true);
        if (view.isDefault) fail('view.main');
        await this.views.delete(caller.projectId, view.id);
        return withEvents(undefined, this.ring(caller));
      },
      { lockProject: caller.projectId },
    );
  }

  /** Replaces the caller's lens (rules and order together); nothing is broadcast. */
  async putLens(caller: ProjectCaller, viewId: string, asked: LensAsked) {
    // Under the project lock, so a lens never lands beside filters written meanwhile that it clashes with.
    return this.uow.write(
      async () => {
        const defs = await this.defs.load(caller.projectId);
        const view = await this.load(caller, viewId, true);
        const lens = cleanFilters(asked.filters, { properties: defs });
        const sort = cleanSort(asked.sort, defs);
        assertLensFits(cleanFilters(view.filters ?? { rules: [] }, { properties: defs }).rules, lens.rules, (id) => nameOf(defs, id));
        if (lens.rules.length === 0 && !sort) await this.views.deleteLens(caller.projectId, view.id, caller.userId);
        else await this.views.putLens(caller.projectId, view.id, caller.userId, lens.rules, sort);
        // A lens is the caller's own: nothing is broadcast.
        return silent(await this.present(caller, view.id, defs));
      },
      { lockProject: caller.projectId },
    );
  }

  /** Moves the caller's lens onto the view for everyone, in one transaction under the project lock. */
  async promote(caller: ProjectCaller, viewId: string) {
    return this.uow.write(
      async () => {
        const defs = await this.defs.load(caller.projectId);
        const view = await this.load(caller, viewId, true);
        const filters = cleanFilters(view.filters ?? { rules: [] }, { properties: defs });
        const lens = cleanFilters({ rules: view.lensRules ?? [] }, { properties: defs });
        const lensSort = cleanSort(view.lensSort, defs);
        assertLensFits(filters.rules, lens.rules, (id) => nameOf(defs, id));
        if (lens.rules.length === 0 && !lensSort) return silent(await this.present(caller, view.id, defs));
        view.filters = { rules: [...filters.rules, ...lens.rules] };
        if (lensSort) view.sort = lensSort;
        await this.views.save(view);
        await this.views.deleteLens(caller.projectId, view.id, caller.userId);
        return withEvents(await this.present(caller, view.id, defs), this.ring(caller));
      },
      { lockProject: caller.projectId },
    );
  }

  /**
   * The live tasks passing the view's filters and the reader's lens, in the reader's order,
   * filtered and ordered in SQL: one query for the page, one for its board fields.
   */
  async tasksOf(caller: ProjectCaller, viewId: string, { limit, after }: { limit: number; after: string | null }) {
    const defs = await this.defs.load(caller.projectId);
    const view = presentView(await this.load(caller, viewId), defs, caller.kind);
    const row = await this.pages.page({
      projectId: caller.projectId,
      me: caller.userId,
      properties: defs,
      filters: view.filters,
      lens: view.lens,
      sort: view.lensSort ?? view.sort,
      after,
      limit,
    });
    const ids = row.ids.slice(0, limit);
    const facts = await this.facts.load(caller.projectId);
    const tasks = await this.tasks.boardTasks(caller.projectId, facts.key, facts.doneWhen, ids);
    const byId = new Map(tasks.map((t) => [t.id, t]));
    return {
      tasks: ids.map((id) => byId.get(id)).filter((t) => t !== undefined),
      total: row.total,
      next: row.ids.length > limit ? ids[ids.length - 1] : null,
    };
  }

  /** Card view of the project (owner and admins): merged row by row. */
  async patchProjectCardView(caller: ProjectCaller, { rows: asked }: { rows: InTurn<CardRowsAsked> }) {
    return this.uow.write(
      async () => {
        const defs = await this.defs.load(caller.projectId);
        const rows = checkCardRows(inTurn(asked), new Set(defs.map((d) => d.id)));
        const current = await this.projectCardView(caller.projectId);
        const merged = { rows: { ...(current.rows ?? {}), ...rows } };
        const changed = JSON.stringify(merged) !== JSON.stringify(current);
        if (changed) await this.views.saveProjectCardView(caller.projectId, merged);
        return withEvents({ cardView: { rows: orderCardRows(merged.rows, defs.map((d) => d.id)) } }, changed && this.ring(caller));
      },
      { lockProject: caller.projectId },
    );
  }

  /** A view's own card view, merged over the project's; `{ rows: null }` goes back to the project's. */
  async patchViewCardView(caller: ProjectCaller, viewId: string, { rows: asked }: { rows: InTurn<CardRowsAsked | null> }) {
    return this.uow.write(
      async () => {
        const defs = await this.defs.load(caller.projectId);
        const view = await this.load(caller, viewId, true);
        const project = await this.projectCardView(caller.projectId);
        const before = JSON.stringify(view.cardView);
        const sent = inTurn(asked);
        if (sent === null) view.cardView = null;
        else {
          const rows = checkCardRows(sent, new Set(defs.map((d) => d.id)));
          view.cardView = { rows: { ...(view.cardView?.rows ?? {}), ...rows } };
        }
        const changed = JSON.stringify(view.cardView) !== before;
        if (changed) await this.views.save(view);
        const effective = { ...(project.rows ?? {}), ...(view.cardView?.rows ?? {}) };
        return withEvents({ cardView: { rows: orderCardRows(effective, defs.map((d) => d.id)) } }, changed && this.ring(caller));
      },
      { lockProject: caller.projectId },
    );
  }

  /** The property a view groups by (none when absent or null); one of another project is refused. */
  private groupOf(id: string | null | undefined, defs: readonly PropertyDef[]): PropertyDef | null {
    if (id === undefined || id === null) return null;
    return defs.find((d) => d.id === id) ?? fail('property.not_in_project');
  }

  private async load(caller: ProjectCaller, viewId: string, lock = false): Promise<ViewRecord> {
    const view = await this.views.find(caller.projectId, viewId, caller.kind === 'human' ? caller.userId : null, lock);
    if (!view) fail('view.not_found');
    return view;
  }

  private async present(caller: ProjectCaller, viewId: string, defs: readonly PropertyDef[]) {
    const project = await this.projectCardView(caller.projectId);
    return presentView((await this.load(caller, viewId)), defs, caller.kind, project.rows ?? {});
  }

  /** The project's card view: only this service writes it, with rows checked by `checkCardRows`. */
  private async projectCardView(projectId: string): Promise<{ rows?: CardRows }> {
    return (await this.views.projectCardView(projectId)) as { rows?: CardRows };
  }

  /** Views and card views write no feed line: their changes ring only the stream. */
  private ring(caller: ProjectCaller): WriteEvent {
    return notice({ projectId: caller.projectId, scope: 'board', clientId: caller.clientId });
  }
}

const nameOf = (defs: readonly PropertyDef[], id: string): string => defs.find((d) => d.id === id)?.name ?? 'that property';
