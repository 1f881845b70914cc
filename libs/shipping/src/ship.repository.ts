import { Task } from '@board/tasks';

/**
 * Storage of option ships: the tasks a ship looks at, the day it carries and the tasks that
 * shipped with it (so the changelog stays true after tasks move on). Port; the adapter is in
 * libs/persistence, one statement per call whatever the number of tasks.
 */
export abstract class ShipRepository {
  /**
   * Live and archived tasks holding the option, and with `strays` the live tasks in no release
   * whose `strays.propertyId` holds one of its options: locked until the transaction ends.
   */
  abstract tasksFor(projectId: string, propertyId: string, optionId: string, strays: { propertyId: string; optionIds: string[] } | null): Promise<Task[]>;
  /** The option carries the day, and the tasks that shipped with it are kept beside it. */
  abstract markShipped(projectId: string, optionId: string, shipId: string, day: string, taskIds: readonly string[]): Promise<void>;
  /** A shipped day taken back: the option no longer says which tasks shipped with it. */
  abstract forget(projectId: string, optionId: string): Promise<void>;
}
