/**
 * Writes lock rows in different orders (a move holds its task and its gap's neighbours in id
 * order, a restore its task and then its parts), so PostgreSQL may end one of two writes to break
 * a deadlock. The unit of work runs that write again instead of answering the caller a 500: here
 * two writes cross two rows' locks on purpose, on the real engine, and both commit.
 */
import { silent, UnitOfWork } from '@board/kernel';
import { Database } from '@board/persistence';
import { startTestApp, TestApp } from '../support/test-app';

describe('a write ended by a deadlock', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let db: Database;
  beforeAll(async () => {
    t = await startTestApp();
    uow = t.app.get(UnitOfWork);
    db = t.app.get(Database);
    await t.sql.query('CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)');
    await t.sql.query('INSERT INTO deadlock_probe (id) VALUES (1), (2)');
  });
  afterAll(() => t.close());

  const bump = (id: number) => db.exec('UPDATE deadlock_probe SET n = n + 1 WHERE id = $1', [id]);

  it('runs again from the start, and both crossing writes commit once each', async () => {
    let firstHolds!: () => void;
    const firstHeld = new Promise<void>((resolve) => (firstHolds = resolve));
    let secondHolds!: () => void;
    const secondHeld = new Promise<void>((resolve) => (secondHolds = resolve));
    const runs = { first: 0, second: 0 };
    // Each takes one row, waits until the other holds the other row, then asks for it: a cycle
    // PostgreSQL breaks after deadlock_timeout by ending one of them. Only the first run of each
    // waits for the other; a run again goes straight through.
    const first = uow.write(async () => {
      runs.first++;
      await bump(1);
      if (runs.first === 1) {
        firstHolds();
        await secondHeld;
      }
      await bump(2);
      return silent('first');
    });
    const second = uow.write(async () => {
      runs.second++;
      await bump(2);
      if (runs.second === 1) {
        secondHolds();
        await firstHeld;
      }
      await bump(1);
      return silent('second');
    });
    await expect(Promise.all([first, second])).resolves.toEqual(['first', 'second']);
    // One of the two ran twice (its first run rolled back whole); each landed once.
    expect(runs.first + runs.second).toBe(3);
    const rows = (await t.sql.query('SELECT id, n FROM deadlock_probe ORDER BY id')).rows;
    expect(rows).toEqual([{ id: 1, n: 2 }, { id: 2, n: 2 }]);
  });

  it('runs a write that failed otherwise once, and answers its error', async () => {
    let runs = 0;
    const failing = uow.write(async () => {
      runs++;
      await db.exec('INSERT INTO deadlock_probe (id) VALUES (1)');
      return silent(undefined);
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });
});
