import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { fail, inTurn, notice, rankBetween, ranksAfter, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  assertAdminPerson, cardHome, cardStart, checkDefaultsPatch, checkWhenRule, findTypeProperty, mergeDefaults, OptionRecord, CardRow, paletteColor, placeAfter,
  PropertyChange, PropertyConfig, PropertyCreate, PropertyDef, PropertyRecord, PropertyRepository, quoteNames, sameJson, shapeProperties,
} from '@board/properties';
import { PropertyDefsQuery } from '@board/persistence';
import type { ProjectCaller } from '../auth/auth-context';

@Injectable()
export class PropertiesService {
  constructor(
    private readonly store: PropertyRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly uow: UnitOfWork,
  ) {}

  /** Appends a property (with its first options) and puts it on the card view. */
  async create(caller: ProjectCaller, asked: PropertyCreate) {
    const projectId = caller.projectId;
    const { name, type, options: names } = asked;
    const id = randomUUID();
    return this.uow.write(
      async () => {
        const position = rankBetween(await this.store.lastPropertyPosition(projectId), null);
        const record = await this.store.insertProperty({ id, projectId, name, type, position, config: {} });
        const ranks = ranksAfter(null, names.length);
        const options: OptionRecord[] = names.map((optionName, i) => ({
          id: randomUUID(), propertyId: id, name: optionName, color: paletteColor(i), position: ranks[i],
          startsOn: null, targetOn: null, note: null, shippedAt: null,
        }));
        for (const o of options) await this.store.insertOption(projectId, o, { property: name, option: o.name });
        await this.store.setCardRow(projectId, id, cardStart(type));
        const [view] = shapeProperties([record], options);
        return withEvents(
          { id, projectId, name: record.name, type, position: record.position, config: view.config, options: view.options, createdAt: record.createdAt },
          this.boardNotice(caller),
        );
      },
      { lockProject: projectId },
    );
  }

  /** Each recognised key applies on its own; one transaction; a ring only when something changed. */
  async update(caller: ProjectCaller, propertyId: string, change: PropertyChange): Promise<void> {
    const projectId = caller.projectId;
    await this.uow.write(
      async () => {
        const property = await this.find(projectId, propertyId);
        const write: { name?: string; position?: string; config?: PropertyConfig } = {};
        const config: PropertyConfig = { ...property.config };
        let changed = false;
        let defs: PropertyDef[] | undefined;
        const loadDefs = async () => (defs ??= await this.defs.load(projectId));

        if (change.name !== undefined && change.name !== property.name) write.name = change.name;
        if (change.showOnCard !== undefined) changed = (await this.showOnCard(projectId, property, change.showOnCard)) || changed;
        if (change.dated !== undefined) {
          assertAdminPerson(caller, 'change dated properties');
          if (property.type !== 'select') fail('property.not_dated_type');
          config.dated = inTurn(change.dated);
          if (!config.dated && property.config.dated === undefined) delete config.dated;
        }
        if (change.defaults !== undefined) {
          assertAdminPerson(caller, 'change defaults');
          const all = await loadDefs();
          const self = all.find((d) => d.id === propertyId) ?? fail('property.not_found');
          const patch = checkDefaultsPatch(self, findTypeProperty(all), change.defaults);
          const defaults = mergeDefaults(config.defaults, patch);
          if (Object.keys(defaults).length > 0 || config.defaults !== undefined) config.defaults = defaults;
        }
        if (change.when !== undefined) {
          const rule = checkWhenRule(inTurn(change.when), propertyId, await loadDefs());
          if (rule) config.when = rule;
          else delete config.when;
        }
        if (change.afterId !== undefined) {
          const afterId = inTurn(change.afterId);
          const position = placeAfter(await this.store.propertyRanks(projectId), propertyId, afterId);
          if (position !== null) write.position = position;
        }

        if (!sameJson(config, property.config)) write.config = config;
        if (write.name !== undefined || write.position !== undefined || write.config !== undefined) {
          await this.store.updateProperty(projectId, propertyId, write);
          changed = true;
        }
        return withEvents(undefined, changed && this.boardNotice(caller));
      },
      { lockProject: projectId },
    );
  }

  /** Refused while a board groups by it; a list's or roadmap's remembered grouping is cleared. */
  async remove(caller: ProjectCaller, propertyId: string): Promise<void> {
    const projectId = caller.projectId;
    await this.uow.write(
      async () => {
        await this.find(projectId, propertyId);
        const boards = (await this.store.groupingViews(projectId, propertyId)).filter((v) => v.kind === 'board');
        if (boards.length === 1) fail('property.grouped_by_view', { view: boards[0].name });
        if (boards.length > 1) fail('property.grouped_by_views', { views: quoteNames(boards.map((v) => v.name)) });
        await this.store.deleteProperty(projectId, propertyId);
        return withEvents(undefined, this.boardNotice(caller));
      },
      { lockProject: projectId },
    );
  }

  countValues(projectId: string, propertyId: string): Promise<number> {
    return this.store.countValues(projectId, propertyId);
  }

  /** false: the card view's off place (keeping the mode); true: where the type belongs. */
  private async showOnCard(projectId: string, property: PropertyRecord, show: boolean): Promise<boolean> {
    const current = await this.store.cardRow(projectId, property.id);
    const next: CardRow = show ? cardHome(property.type) : { place: 'off', mode: current?.mode ?? cardHome(property.type).mode };
    if (current && current.place === next.place && current.mode === next.mode) return false;
    await this.store.setCardRow(projectId, property.id, next);
    return true;
  }

  private async find(projectId: string, propertyId: string): Promise<PropertyRecord> {
    const property = await this.store.findProperty(projectId, propertyId);
    if (!property) fail('property.not_found');
    return property;
  }

  /** Properties write no feed line: their changes ring only the stream. */
  private boardNotice(caller: ProjectCaller): WriteEvent {
    return notice({ projectId: caller.projectId, scope: 'board', clientId: caller.clientId });
  }
}
