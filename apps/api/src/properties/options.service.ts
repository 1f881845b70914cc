import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { fail, notice, parseId, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  assertAdminPerson, hasDatedOptions, hasOptions, isHexColor, nextOptionColor, OptionRecord, optionKey, optionView, placeAfter,
  positionAfterLast, PropertyRecord, PropertyRepository, readOptionDay, readOptionName, readOptionNote, sameJson,
} from '@board/properties';
import { ShipRepository } from '@board/shipping';
import type { ProjectCaller } from '../auth/auth-context';
import type { OptionBody } from './properties.dto';

@Injectable()
export class OptionsService {
  constructor(
    private readonly store: PropertyRepository,
    private readonly ships: ShipRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Appends an option; a name the property already has (case and spaces ignored) is a 409. */
  async create(caller: ProjectCaller, propertyId: string, body: OptionBody) {
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        const property = await this.property(projectId, propertyId);
        if (!hasOptions(property.type)) fail('option.not_select');
        const name = readOptionName(body.name, true);
        const dated = hasDatedOptions(property.type, property.config);
        const days = dated ? readDatedFields(body) : {};
        const siblings = await this.store.options(projectId, propertyId);
        const clash = { property: property.name, option: name };
        if (siblings.some((o) => optionKey(o.name) === optionKey(name))) fail('option.duplicate', clash);
        const option: OptionRecord = {
          id: randomUUID(),
          propertyId,
          name,
          color: isHexColor(body.color) ? body.color.toLowerCase() : nextOptionColor(siblings.map((o) => o.color)),
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

  async update(caller: ProjectCaller, optionId: string, body: OptionBody) {
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        const option = await this.option(projectId, optionId);
        const property = await this.property(projectId, option.propertyId);
        const dated = hasDatedOptions(property.type, property.config);
        const next: OptionRecord = { ...option };
        let siblings: OptionRecord[] | undefined;
        const loadSiblings = async () => (siblings ??= await this.store.options(projectId, option.propertyId));

        if (body.name !== undefined) {
          next.name = readOptionName(body.name, true);
          // An option may change the case of its own name; another option's name is taken.
          if ((await loadSiblings()).some((o) => o.id !== option.id && optionKey(o.name) === optionKey(next.name))) {
            fail('option.duplicate', { property: property.name, option: next.name });
          }
        }
        if (body.color !== undefined) {
          if (!isHexColor(body.color)) fail('option.color_invalid');
          next.color = (body.color as string).toLowerCase();
        }
        if (dated) {
          Object.assign(next, readDatedFields(body));
          if (body.shippedAt === null) {
            assertAdminPerson(caller, 'take back a shipped day');
            next.shippedAt = null;
          }
        }
        if (body.afterId !== undefined) {
          const afterId = body.afterId === null ? null : parseId(body.afterId, 'option');
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

/** startsOn, targetOn and note of a dated option: only the keys that were sent. */
function readDatedFields(body: OptionBody): Partial<Pick<OptionRecord, 'startsOn' | 'targetOn' | 'note'>> {
  const fields: Partial<Pick<OptionRecord, 'startsOn' | 'targetOn' | 'note'>> = {};
  const startsOn = readOptionDay(body.startsOn, 'startsOn');
  const targetOn = readOptionDay(body.targetOn, 'targetOn');
  const note = readOptionNote(body.note);
  if (startsOn !== undefined) fields.startsOn = startsOn;
  if (targetOn !== undefined) fields.targetOn = targetOn;
  if (note !== undefined) fields.note = note;
  return fields;
}
