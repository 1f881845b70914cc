import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where an imported task came from: the card id of a third-party board tool (a Trello card), one
 * task per card and project. The primary key is what makes an import safe to run again: a card
 * already imported is found here and skipped, and two imports can never both bring it in. A
 * purged task takes its row with it, so its card may come in again.
 */
export class TaskSources1764806400000 implements MigrationInterface {
  name = 'TaskSources1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE task_sources (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        source_id text NOT NULL,
        task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, source_id)
      );
      CREATE UNIQUE INDEX task_sources_task ON task_sources (task_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE task_sources');
  }
}
