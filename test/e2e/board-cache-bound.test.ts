import { expectStatus, seedTasks } from '../support/fixtures';
import { Client, createProject, registerPerson, startTestApp, TestApp } from '../support/test-app';
import { BoardCache } from '../../apps/api/src/tasks/board-cache';

/**
 * An instance keeps at most SERVICE_BOARD_CACHE_BYTES of serialised board lists (256 MB by
 * default), whatever the number of projects (decisions.md › Fair use): here a bound of 3 MB and
 * boards of about 1 MB each, so reading four boards must let the least recently read go.
 */
const BOUND = 3 * 1024 * 1024;

describe('the board cache is bounded by bytes', () => {
  let t: TestApp;
  let c: Client;
  let cache: BoardCache;
  const projects: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { SERVICE_BOARD_CACHE_BYTES: String(BOUND) } });
    c = (await registerPerson(t, 'Reader')).client;
    cache = t.app.get(BoardCache);
    for (const key of ['CBA', 'CBB', 'CBC', 'CBD']) {
      const p = await createProject(c, key, key);
      // Straight in SQL: 1,800 creates per board through the API would only slow the test down.
      await seedTasks(t, p.id, 1_800);
      projects.push(p.id);
    }
  });
  afterAll(() => t.close());

  const read = async (projectId: string) => (await expectStatus(c.get(`/projects/${projectId}/board`), 200)).tasks.length;

  it('keeps the most recently read boards within the bound and lets the oldest go', async () => {
    for (const id of projects) expect(await read(id)).toBeGreaterThanOrEqual(1_800);
    expect(cache.heldBytes).toBeGreaterThan(0);
    expect(cache.heldBytes).toBeLessThanOrEqual(BOUND);
    const kept = cache.projects();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(projects.length);
    // Least recently used first: what is kept is the tail of the read order.
    expect(kept).toEqual(projects.slice(projects.length - kept.length));

    // A board read again is the most recently used, and an evicted one still reads in full.
    expect(await read(projects[0])).toBeGreaterThanOrEqual(1_800);
    expect(cache.projects().at(-1)).toBe(projects[0]);
    expect(cache.heldBytes).toBeLessThanOrEqual(BOUND);
  });

  it('reads a board larger than the whole bound without keeping it', async () => {
    const big = await createProject(c, 'Big', 'CBX');
    // Straight in SQL: 9,000 creates through the API would only slow the test down.
    await seedTasks(t, big.id, 9_000);
    const before = cache.projects();
    expect(await read(big.id)).toBeGreaterThanOrEqual(9_000);
    expect(cache.projects()).toEqual(before);
    expect(cache.heldBytes).toBeLessThanOrEqual(BOUND);
  });
});
