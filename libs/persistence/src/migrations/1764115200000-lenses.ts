import { MigrationInterface, QueryRunner } from 'typeorm';

/** A person's own rules and order on a view (the lens). Never an agent's. */
export class Lenses1764115200000 implements MigrationInterface {
  name = 'Lenses1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lenses (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        view_id uuid NOT NULL REFERENCES views (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        rules jsonb NOT NULL DEFAULT '[]',
        sort jsonb,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, view_id, user_id)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lenses');
  }
}
