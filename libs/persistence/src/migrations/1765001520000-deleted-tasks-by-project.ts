import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project's deleted tasks, found without walking its live ones: the inbox's unread count takes
 * away the unread notifications of deleted tasks by visiting those tasks (a handful) instead of
 * checking every unread notification's task (bench/README.md › inbox read).
 */
export class DeletedTasksByProject1765001520000 implements MigrationInterface {
  name = 'DeletedTasksByProject1765001520000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS tasks_deleted_by_project ON tasks (project_id, id) WHERE deleted_at IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS tasks_deleted_by_project');
  }
}
