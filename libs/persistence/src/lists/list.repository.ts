import { Injectable } from '@nestjs/common';
import { Ranked } from '@board/lists';
import { Database } from '../database';

/**
 * A person's lists and what they hold, for writes. Every write of a person's lists runs in one
 * transaction under `lockPerson`, so the limits (50 lists, 500 tasks a list) hold however many
 * writes race, and two moves never compute a rank from the same neighbours.
 */
@Injectable()
export class ListRepository {
  constructor(private readonly db: Database) {}

  async lockPerson(userId: string): Promise<void> {
    // Its own key space ('lists:' prefix), apart from the project locks on the bare uuid.
    await this.db.exec(`SELECT pg_advisory_xact_lock(hashtextextended('lists:' || $1::uuid::text, 7))`, [userId]);
  }

  /** The person's lists in their order, the list `exceptId` left out. */
  async lists(userId: string, exceptId: string | null = null): Promise<Ranked[]> {
    return this.db.query<Ranked>(
      `SELECT id, position FROM lists WHERE user_id = $1 AND id IS DISTINCT FROM $2 ORDER BY position COLLATE "C", id`,
      [userId, exceptId],
    );
  }

  async exists(userId: string, listId: string): Promise<boolean> {
    return (await this.db.one('SELECT 1 FROM lists WHERE user_id = $1 AND id = $2', [userId, listId])) !== null;
  }

  async insert(row: { id: string; userId: string; name: string; position: string; now: Date }): Promise<void> {
    await this.db.exec('INSERT INTO lists (id, user_id, name, position, created_at) VALUES ($1, $2, $3, $4, $5)', [row.id, row.userId, row.name, row.position, row.now]);
  }

  async update(userId: string, listId: string, change: { name?: string; position?: string }): Promise<void> {
    await this.db.exec(
      'UPDATE lists SET name = COALESCE($3, name), position = COALESCE($4, position) WHERE user_id = $1 AND id = $2',
      [userId, listId, change.name ?? null, change.position ?? null],
    );
  }

  async delete(userId: string, listId: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM lists WHERE user_id = $1 AND id = $2', [userId, listId])).count > 0;
  }

  /** The project of a task the person may put in a list: not deleted, in a project they are a member of. */
  async taskProject(userId: string, taskId: string): Promise<string | null> {
    const row = await this.db.one<{ project_id: string }>(
      `SELECT t.project_id FROM tasks t JOIN members m ON m.project_id = t.project_id AND m.user_id = $1
        WHERE t.id = $2 AND t.deleted_at IS NULL`,
      [userId, taskId],
    );
    return row?.project_id ?? null;
  }

  /** Every task in the list (hidden ones too: they keep their place), in the list's order. */
  async items(listId: string): Promise<Ranked[]> {
    return this.db.query<Ranked>(`SELECT task_id AS id, position FROM list_tasks WHERE list_id = $1 ORDER BY position COLLATE "C", task_id`, [listId]);
  }

  async putItem(row: { listId: string; projectId: string; taskId: string; position: string }): Promise<void> {
    await this.db.exec(
      `INSERT INTO list_tasks (list_id, project_id, task_id, position) VALUES ($1, $2, $3, $4)
       ON CONFLICT (list_id, task_id) DO UPDATE SET position = EXCLUDED.position`,
      [row.listId, row.projectId, row.taskId, row.position],
    );
  }

  async removeItem(listId: string, taskId: string): Promise<void> {
    await this.db.exec('DELETE FROM list_tasks WHERE list_id = $1 AND task_id = $2', [listId, taskId]);
  }
}
