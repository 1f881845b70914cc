import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, feedLinesRingingOnce, notice, UnitOfWork, withEvents } from '@board/kernel';
import { PropertyDefsQuery } from '@board/persistence';
import { TaskRepository } from '@board/tasks';
import { PropertyRepository } from '@board/properties';
import { ProjectRepository } from '@board/projects';
import { checkShip, planShip, ShipRepository, ShipRequest, ShipRest, shipDay, shipRingKinds } from '@board/shipping';
import type { ProjectCaller } from '../auth/auth-context';

export interface ShipAnswer {
  archived: number;
  moved: number;
  rest: ShipRest;
  shippedAt: string;
  taken: number;
}

/**
 * Ships a release or a sprint: one transaction under the project lock, in a fixed number of
 * statements however many tasks the option holds (read, lock the tasks, write them back, their
 * feed lines, the day and the shipped tasks), one stream ring and one ring per webhook.
 */
@Injectable()
export class ShippingService {
  constructor(
    private readonly store: PropertyRepository,
    private readonly ships: ShipRepository,
    private readonly projects: ProjectRepository,
    private readonly defs: PropertyDefsQuery,
    private readonly tasks: TaskRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async ship(caller: ProjectCaller, optionId: string, request: ShipRequest): Promise<ShipAnswer> {
    const projectId = caller.projectId;
    return this.uow.write(
      async () => {
        const option = (await this.store.findOption(projectId, optionId)) ?? fail('option.not_found');
        // One after the other: a transaction's statements share one connection.
        const property = await this.store.findProperty(projectId, option.propertyId);
        const project = await this.projects.findById(projectId);
        const siblings = await this.store.options(projectId, option.propertyId);
        const defs = await this.defs.load(projectId);
        if (!property || !project) return fail('option.not_found');
        const { releases, sprints, doneWhen } = project.snapshot;
        const { kind, next } = checkShip({ option, property, siblings, project: { releases, sprints } }, request);
        const takesStrays = kind === 'release' && request.strays && doneWhen !== null;
        const tasks = await this.ships.tasksFor(projectId, property.id, option.id, takesStrays ? doneWhen : null);
        const now = this.clock.now();
        const shipId = randomUUID();
        const plan = planShip({
          projectId,
          actorId: caller.userId,
          shipId,
          now,
          kind,
          request,
          option,
          next,
          property: defs.find((d) => d.id === property.id) ?? fail('option.not_found'),
          defs,
          doneWhen,
          tasks,
        });
        await this.tasks.saveMany(projectId, plan.changed, now, true);
        const day = shipDay(now);
        await this.ships.markShipped(projectId, option.id, shipId, day, plan.shipped);
        return withEvents(
          { archived: plan.archived, moved: plan.moved, rest: request.rest, shippedAt: day, taken: plan.taken },
          feedLinesRingingOnce(plan.lines, shipRingKinds(plan.lines)),
          notice({ projectId, scope: 'board', clientId: caller.clientId }),
        );
      },
      { lockProject: projectId },
    );
  }
}
