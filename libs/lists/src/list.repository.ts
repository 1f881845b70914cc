import { Ranked } from './list';

/** A list as it is created. */
export interface NewList {
  id: string;
  userId: string;
  name: string;
  position: string;
  now: Date;
}

/** A task in a list, with the task's project (every row about a project's data carries it). */
export interface ListItem {
  listId: string;
  projectId: string;
  taskId: string;
  position: string;
}

/**
 * A person's lists and what they hold, for writes (port; the adapter is in libs/persistence).
 * Every write of a person's lists runs in one transaction under `lockPerson`, so the limits hold
 * however many writes race, and two moves never compute a rank from the same neighbours.
 */
export abstract class ListRepository {
  /** Holds the person's lists until the end of the transaction. */
  abstract lockPerson(userId: string): Promise<void>;
  /** The person's lists in their order, the list `exceptId` left out. */
  abstract lists(userId: string, exceptId?: string | null): Promise<Ranked[]>;
  abstract exists(userId: string, listId: string): Promise<boolean>;
  abstract insert(list: NewList): Promise<void>;
  /** Changes what is given (name, rank); the rest stays. */
  abstract update(userId: string, listId: string, change: { name?: string; position?: string }): Promise<void>;
  /** Answers whether there was one. */
  abstract delete(userId: string, listId: string): Promise<boolean>;
  /** The project of a task the person may put in a list: not deleted, in a project they are a member of. */
  abstract taskProject(userId: string, taskId: string): Promise<string | null>;
  /** Every task in the list (hidden ones too: they keep their place), in the list's order. */
  abstract items(listId: string): Promise<Ranked[]>;
  /** Adds the task at `position`, or moves it there when it is in the list already. */
  abstract putItem(item: ListItem): Promise<void>;
  abstract removeItem(listId: string, taskId: string): Promise<void>;
}
