import { ShipRepository } from '@board/shipping';
import type { Task } from '@board/tasks';
import type { InMemoryPropertyRepository } from './property-repository';

/**
 * ShipRepository in memory over `tasks` (the project's tasks, live, archived or deleted). A ship
 * marks the option's day in the property store it is given, as the adapter writes the options row.
 */
export class InMemoryShipRepository extends ShipRepository {
  readonly tasks: Task[] = [];
  readonly shipped = new Map<string, { shipId: string; day: string; taskIds: string[] }>();
  readonly forgotten: string[] = [];

  constructor(private readonly properties?: InMemoryPropertyRepository) {
    super();
  }

  async tasksFor(projectId: string, propertyId: string, optionId: string, strays: { propertyId: string; optionIds: string[] } | null): Promise<Task[]> {
    return this.tasks.filter((t) => {
      if (t.snapshot.projectId !== projectId || t.isDeleted) return false;
      if (t.values[propertyId] === optionId) return true;
      const value = t.values[strays?.propertyId ?? ''];
      return !!strays && !t.isArchived && typeof value === 'string' && strays.optionIds.includes(value);
    });
  }

  async markShipped(projectId: string, optionId: string, shipId: string, day: string, taskIds: readonly string[]): Promise<void> {
    this.shipped.set(optionId, { shipId, day, taskIds: [...taskIds] });
    const option = this.properties?.options_.get(optionId);
    if (option?.projectId === projectId) option.shippedAt = day;
  }

  async forget(_projectId: string, optionId: string): Promise<void> {
    this.shipped.delete(optionId);
    this.forgotten.push(optionId);
  }
}
