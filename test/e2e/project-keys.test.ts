import { expectError } from '../support/fixtures';
import { createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';

const KEY = /^[A-Z][A-Z0-9]{1,9}$/;

/** Issue "The first hour", point 13: a create without a key never fails for want of one. */
describe('derived project keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  // Storage itself: the keys of every person's projects of a name, which no one person's read shows.
  const keysNamed = async (name: string) =>
    (await t.sql.query<{ key: string }>('SELECT key FROM projects WHERE name = $1', [name])).rows.map((r) => r.key);

  it('gives 1,050 projects of one name, created 30 at a time, 1,050 distinct keys: MP, then MP2 to MP1050', async () => {
    const pat = await registerPerson(t);
    const keys: string[] = [];
    for (let made = 0; made < 1050; made += 30) {
      const batch = await Promise.all(Array.from({ length: Math.min(30, 1050 - made) }, () => pat.client.post('/projects', { name: 'My project' })));
      for (const answer of batch) {
        expect(answer.status).toBe(201);
        keys.push(answer.body.project.key);
      }
    }
    expect(new Set(keys).size).toBe(1050);
    expect(new Set(keys)).toEqual(new Set(['MP', ...Array.from({ length: 1049 }, (_, i) => `MP${i + 2}`)]));
    expect((await keysNamed('My project')).length).toBe(1050);
    // The old way read one taken key per round trip (about 550,000 reads here) and gave up after MP999.
  }, 180_000);

  it('skips keys taken by hand and fills the gap a deleted project left', async () => {
    const pat = await registerPerson(t);
    await createProject(pat.client, 'Gap Finder', 'GF');
    await createProject(pat.client, 'Another', 'GF2');
    await createProject(pat.client, 'Another', 'GF4');
    // Not numbered the way keys are derived: neither counts as taken numbers of GF.
    await createProject(pat.client, 'Another', 'GF03');
    await createProject(pat.client, 'Another', 'GFX5');
    expect((await createProject(pat.client, 'Gap Finder')).key).toBe('GF3');
    expect((await createProject(pat.client, 'Gap Finder')).key).toBe('GF5');
    const gone = await createProject(pat.client, 'Gap Finder');
    expect(gone.key).toBe('GF6');
    expect((await pat.client.delete(`/projects/${gone.id}`)).status).toBe(200);
    expect((await createProject(pat.client, 'Gap Finder')).key).toBe('GF6');
  });

  it('moves to the first two letters when every number that fits is taken', async () => {
    const pat = await registerPerson(t);
    // ABCDEF and ABCDEF2 … ABCDEF9999: every key of the six-letter base that fits in ten characters,
    // written straight into the table (10,000 creates through the API would take minutes).
    await t.sql.query(
      `INSERT INTO projects (id, name, key, owner_id)
       SELECT gen_random_uuid(), 'filler', CASE WHEN n = 1 THEN 'ABCDEF' ELSE 'ABCDEF' || n END, $1 FROM generate_series(1, 9999) AS n`,
      [pat.user.id],
    );
    await createProject(pat.client, 'Another', 'AB');
    const first = await createProject(pat.client, 'a b c d e f');
    expect(first.key).toBe('AB2');
    expect((await createProject(pat.client, 'A B C D E F')).key).toBe('AB3');
    await t.sql.query(`DELETE FROM projects WHERE name = 'filler'`);
  }, 60_000);

  it('still refuses a sent key that is taken, and a sent key that is not a key', async () => {
    const pat = await registerPerson(t);
    await createProject(pat.client, 'Keeper', 'KEEP');
    expectError(await pat.client.post('/projects', { name: 'Keeper', key: 'keep' }), 409, 'Another project already uses the key KEEP.');
    expectError(await pat.client.post('/projects', { name: 'Keeper', key: '1X' }), 400, 'A key is 2 to 10 letters or digits and starts with a letter.');
    const derived = await createProject(pat.client, 'Keeper');
    expect(derived.key).toMatch(KEY);
    expect(derived.key).not.toBe('KEEP');
  });
});
