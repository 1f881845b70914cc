import { Client as PgClient } from 'pg';
import { createApp } from '../../apps/api/src/app.factory';
import { loadConfig } from '../../apps/api/src/config/app-config';
import { MIGRATIONS } from '../../libs/persistence/src/migrations';
import { createDatabase } from '../support/database';

/** Instances starting together on an empty database take turns at the migrations. */
describe('migrations at start', () => {
  it('lets three instances start at once on a fresh database, each migration applied once', async () => {
    const db = await createDatabase();
    const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_POOL_SIZE: '3', DATABASE_URL: db.url });
    const apps = await Promise.all([createApp({ config }), createApp({ config }), createApp({ config })]);
    try {
      const client = new PgClient({ connectionString: db.url });
      client.on('error', () => undefined);
      await client.connect();
      const rows = (await client.query('SELECT name FROM migrations ORDER BY id')).rows.map((r) => r.name);
      await client.end();
      expect(rows).toEqual(MIGRATIONS.map((m) => new m().name));
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await db.drop();
    }
  });
});
