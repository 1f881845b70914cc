import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A person's own lists of tasks and charts across projects. A list item keeps its task's project
 * (every row about a project's data carries it) and goes with the task when the task is removed
 * for good; a deleted task or a left project only hides it. Charts need nothing at write time and
 * no index of their own: a chart reads its projects' feed lines in bulk, and a task's value before
 * a delete line through `activity_task`.
 */
export class ListsCharts1764892800000 implements MigrationInterface {
  name = 'ListsCharts1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lists (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        position text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX lists_user ON lists (user_id, position COLLATE "C");

      CREATE TABLE list_tasks (
        list_id uuid NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        position text COLLATE "C" NOT NULL,
        PRIMARY KEY (list_id, task_id)
      );
      CREATE INDEX list_tasks_order ON list_tasks (list_id, position COLLATE "C");
      CREATE INDEX list_tasks_task ON list_tasks (task_id);
      CREATE INDEX list_tasks_project ON list_tasks (project_id);

      CREATE TABLE charts (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('burnup', 'flow', 'throughput')),
        project_ids uuid[] NOT NULL,
        property_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX charts_user ON charts (user_id, created_at, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE charts, list_tasks, lists');
  }
}
