import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { fail, inTurn, notice, passedOrNone, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  assertAdminPerson, datedFields, hasDatedOptions, hasOptions, newOptionName, nextOptionColor, OptionAsked, OptionRecord, optionKey, optionView, placeAfter,
  positionAfterLast, PropertyRecord, PropertyRepository, sameJson,
} from '@board/properties';
import { ShipRepository } from '@board/shipping';
import type { ProjectCaller } from '../auth/auth-context';

@Injectable()
export class OptionsService {
  constructor(
    private readonly store: PropertyRepository,
    private readonly ships: ShipRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Appends an option; a name the property already has (case and spaces ignored) is a 409. */
  async create(caller: ProjectCaller, propertyId: string, asked: OptionAsked) {
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        const property = await this.property(projectId, propertyId);
        if (!hasOptions(property.type)) fail('option.not_select');
        const name = newOptionName(asked.name);
        const dated = hasDatedOptions(property.type, property.config);
        const days = dated ? datedFields(asked) : {};
        const siblings = await this.store.options(projectId, propertyId);
        const clash = { property: property.name, option: name };
        if (siblings.some((o) => optionKey(o.name) === optionKey(name))) fail('option.duplicate', clash);
        const option: OptionRecord = {
          id: randomUUID(),
          propertyId,
          name,
          color: passedOrNone(asked.color) ?? nextOptionColor(siblings.map((o) => o.color)),
          position: positionAfterLast(siblings.map((o) => o.position)),
          startsOn: days.startsOn ?? null,
          targetOn: days.targetOn ?? null,
          note: days.note ?? null,
          shippedAt: null,
        };
        await this.store.insertOption(projectId, option, clash);
        return withEvents(optionView(option, dated), this.boardNotice(caller));
      },
      { lockProject: projectId },
    );
  }

  async update(caller: ProjectCaller, optionId: string, asked: OptionAsked) {
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        const option = await this.option(projectId, optionId);
        const property = await this.property(projectId, option.propertyId);
        const dated = hasDatedOptions(property.type, property.config);
        const next: OptionRecord = { ...option };
        let siblings: OptionRecord[] | undefined;
        const loadSiblings = async () => (siblings ??= await this.store.options(projectId, option.propertyId));

        if (asked.name !== undefined) {
          next.name = inTurn(asked.name);
          // An option may change the case of its own name; another option's name is taken.
          if ((await loadSiblings()).some((o) => o.id !== option.id && optionKey(o.name) === optionKey(next.name))) {
            fail('option.duplicate', { property: property.name, option: next.name });
          }
        }
        if (asked.color !== undefined) next.color = inTurn(asked.color);
        if (dated) {
          Object.assign(next, datedFields(asked));
          if (asked.shippedAt === null) {
            assertAdminPerson(caller, 'take back a shipped day');
            next.shippedAt = null;
          }
        }
        if (asked.afterId !== undefined) {
          const afterId = inTurn(asked.afterId);
          const position = placeAfter(await loadSiblings(), option.id, afterId);
          if (position !== null) next.position = position;
        }

        if (!sameJson(next, option)) {
          await this.store.updateOption(projectId, next, { property: property.name, option: next.name });
          // A day taken back undoes the record of what shipped; a later ship records afresh.
          if (option.shippedAt && !next.shippedAt) await this.ships.forget(projectId, option.id);
          return withEvents(optionView(next, dated), this.boardNotice(caller));
        }
        return silent(optionView(next, dated));
      },
      { lockProject: projectId },
    );
  }

  /** Deletes the option and scrubs it from every value; saved filter rules are left alone. */
  async remove(caller: ProjectCaller, optionId: string): Promise<void> {
    const projectId = caller.projectId;
    await this.uow.write(
      async () => {
        const option = await this.option(projectId, optionId);
        await this.store.deleteOption(projectId, option.propertyId, option.id);
        return withEvents(undefined, this.boardNotice(caller));
      },
      { lockProject: projectId },
    );
  }

  async countTasks(projectId: string, optionId: string): Promise<number> {
    const option = await this.option(projectId, optionId);
    return this.store.countOptionTasks(projectId, option.propertyId, option.id);
  }

  private async property(projectId: string, propertyId: string): Promise<PropertyRecord> {
    const property = await this.store.findProperty(projectId, propertyId);
    if (!property) fail('property.not_found');
    return property;
  }

  private async option(projectId: string, optionId: string): Promise<OptionRecord> {
    const option = await this.store.findOption(projectId, optionId);
    if (!option) fail('option.not_found');
    return option;
  }

  /** Options write no feed line: their changes ring only the stream. */
  private boardNotice(caller: ProjectCaller): WriteEvent {
    return notice({ projectId: caller.projectId, scope: 'board', clientId: caller.clientId });
  }
}

