import { Injectable } from '@nestjs/common';
import { ListItem, ListRepository, NewList, Ranked } from '@board/lists';
import { Database } from '../database';
import { advisoryXactLock, personListsLockKey } from '../locks.sql';
import { sql } from '../sql';
import { LIST_TASK_RANKED_COLUMNS } from './list-tasks.table';
import { LIST_RANKED_COLUMNS } from './lists.table';

/** A person's lists and what they hold, in PostgreSQL. */
@Injectable()
export class PgListRepository extends ListRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async lockPerson(userId: string): Promise<void> {
    await this.db.exec(advisoryXactLock(personListsLockKey(userId)));
  }

  async lists(userId: string, exceptId: string | null = null): Promise<Ranked[]> {
    return this.db.query<Ranked>(
      sql`SELECT ${LIST_RANKED_COLUMNS} FROM lists WHERE user_id = ${userId} AND id IS DISTINCT FROM ${exceptId} ORDER BY position COLLATE "C", id`,
    );
  }

  async exists(userId: string, listId: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM lists WHERE user_id = ${userId} AND id = ${listId}`)) !== null;
  }

  async insert(list: NewList): Promise<void> {
    await this.db.exec(sql`INSERT INTO lists (id, user_id, name, position, created_at)
      VALUES (${list.id}, ${list.userId}, ${list.name}, ${list.position}, ${list.now})`);
  }

  async update(userId: string, listId: string, change: { name?: string; position?: string }): Promise<void> {
    await this.db.exec(sql`UPDATE lists SET name = COALESCE(${change.name ?? null}, name), position = COALESCE(${change.position ?? null}, position)
      WHERE user_id = ${userId} AND id = ${listId}`);
  }

  async delete(userId: string, listId: string): Promise<boolean> {
    return (await this.db.exec(sql`DELETE FROM lists WHERE user_id = ${userId} AND id = ${listId}`)).count > 0;
  }

  async taskProject(userId: string, taskId: string): Promise<string | null> {
    const row = await this.db.one<{ project_id: string }>(
      sql`SELECT t.project_id FROM tasks t JOIN members m ON m.project_id = t.project_id AND m.user_id = ${userId}
           WHERE t.id = ${taskId} AND t.deleted_at IS NULL`,
    );
    return row?.project_id ?? null;
  }

  async items(listId: string): Promise<Ranked[]> {
    return this.db.query<Ranked>(
      sql`SELECT ${LIST_TASK_RANKED_COLUMNS} FROM list_tasks WHERE list_id = ${listId} ORDER BY position COLLATE "C", task_id`,
    );
  }

  async putItem(item: ListItem): Promise<void> {
    await this.db.exec(sql`INSERT INTO list_tasks (list_id, project_id, task_id, position)
      VALUES (${item.listId}, ${item.projectId}, ${item.taskId}, ${item.position})
      ON CONFLICT (list_id, task_id) DO UPDATE SET position = EXCLUDED.position`);
  }

  async removeItem(listId: string, taskId: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM list_tasks WHERE list_id = ${listId} AND task_id = ${taskId}`);
  }
}
