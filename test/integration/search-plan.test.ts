/**
 * Search is answered from indexes, never a scan of every task (extensions.md § 4: "indexed"). Over
 * a seeded database of 20 projects (60,000 tasks, 6,000 comments), the statement SearchQuery runs
 * is explained: no sequential scan of tasks, their search documents or comments, for a rare word,
 * a key, and words spread over a task and its comments.
 */
import { compile, Database, PgSearchQuery, Sql } from '@board/persistence';
import { createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const PROJECTS = 20;
const TASKS = 3000;

describe('search uses its indexes', () => {
  let t: TestApp;
  let owner: Person;
  let projectIds: string[];

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    projectIds = [];
    for (let i = 0; i < PROJECTS; i++) projectIds.push((await createProject(owner.client, `Plan ${i}`, `PL${i}`)).id);
    // Seeded in SQL like the bench: a small vocabulary of common words, and one rare word per task.
    await t.sql.query(
      `INSERT INTO tasks (id, project_id, number, title, description, position, created_by)
       SELECT gen_random_uuid(), p.id, n, 'Deploy review ' || n || ' word' || md5(p.id::text || n)::text,
              repeat('cache webhook stream board column filter ', 3) || 'rare' || n, 'a' || lpad(n::text, 6, '0'), $2
         FROM unnest($1::uuid[]) p(id), generate_series(1, ${TASKS}) n`,
      [projectIds, owner.user.id],
    );
    await t.sql.query(
      `INSERT INTO comments (id, project_id, task_id, author_id, body)
       SELECT gen_random_uuid(), project_id, id, created_by, 'Spotted a pelican over ' || number FROM tasks WHERE number % 10 = 0`,
    );
    await t.sql.query(`UPDATE projects SET task_counter = ${TASKS}`);
    await t.sql.query('ANALYZE');
  }, 120_000);
  afterAll(() => t.close());

  /**
   * The statement `search` runs for `q`, explained (its rows are not read) on one connection after
   * the settings the search makes in its transaction (SET LOCAL), replayed.
   */
  async function planOf(q: string, analyze = false): Promise<string> {
    let statement: Sql | null = null;
    const settings: Sql[] = [];
    const db = t.app.get(Database);
    // The words are read for real; the search statement itself is kept to be explained.
    const capture = {
      transaction: (work: () => Promise<unknown>) => work(),
      exec: async (s: Sql) => (settings.push(s), { rows: [], count: 0 }),
      query: async (s: Sql) => (compile(s).text.includes('SELECT lexeme') ? db.query(s) : ((statement = s), [])),
    } as unknown as Database;
    await new PgSearchQuery(capture).search(projectIds, q, 20);
    if (!statement) throw new Error('no statement');
    const { text, values } = compile(statement as Sql);
    const client = await t.sql.connect();
    try {
      await client.query('BEGIN');
      for (const setting of settings) await client.query(compile(setting).text, compile(setting).values);
      const rows = (await client.query(`EXPLAIN ${analyze ? '(ANALYZE) ' : ''}${text}`, values)).rows as { 'QUERY PLAN': string }[];
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  it.each([
    ['a rare word', 'rare1234'],
    ['a key', 'PL3-1500'],
    ['words over a task and its comments', 'deploy pelican'],
    ['a prefix with accents', 'Révie'],
  ])('%s: no sequential scan of tasks, task_search or comments', async (_, q) => {
    const plan = await planOf(q);
    // PLAN_DEBUG=1 prints the plan with its timings.
    if (process.env.PLAN_DEBUG) console.log(q, await planOf(q, true));
    expect(plan).not.toMatch(/Seq Scan on (tasks|task_search|comments)\b/);
    expect(plan).toMatch(/Bitmap Index Scan on (task_search_doc|comments_search)|Index Scan using tasks_number/);
  });

  it('answers the right tasks from that database', async () => {
    const db = t.app.get(Database);
    const search = new PgSearchQuery(db);
    const rare = await search.search(projectIds, 'rare1234', 20);
    expect(rare.total).toBe(PROJECTS);
    const key = await search.search(projectIds, 'pl3-1500', 20);
    expect(key.hits[0]).toMatchObject({ task: { key: 'PL3-1500' }, where: 'key' });
    const spread = await search.search(projectIds, 'deploy pelican', 5);
    expect(spread.total).toBe((PROJECTS * TASKS) / 10);
    expect(spread.hits.every((h) => h.where === 'title')).toBe(true);
  });
});
