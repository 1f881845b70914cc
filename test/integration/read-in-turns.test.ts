/**
 * A big answer reaches pg one socket chunk per turn of the event loop (libs/persistence
 * read-in-turns.ts): libuv hands a socket up to 32 reads in one turn, and parsing a 50,000-task
 * board's rows that way held the loop 80–100 ms a turn on a slow day (board-event-loop.test.ts
 * failed a clean-clone run at 110–140 ms). Here a 16 MB answer is read on a real PostgreSQL while
 * the chunks that reach the client's socket are counted per turn.
 */
import type { Duplex } from 'node:stream';
import { Client, Pool, PoolClient } from 'pg';
import { createDataSource, openDataSource, closeDataSource } from '@board/persistence';
import { readInTurns } from '../../libs/persistence/src/read-in-turns';
import { serverUrl } from '../support/database';

const BIG = `SELECT n, repeat('x', 800) AS filler FROM generate_series(1, 20000) n`;

/** Reads BIG on `client` and answers the most socket chunks that arrived within one turn of the loop. */
async function mostChunksInOneTurn(client: Client | PoolClient): Promise<{ most: number; rows: number }> {
  const socket = (client as unknown as { connection: { stream: Duplex } }).connection.stream;
  let inTurn = 0;
  let most = 0;
  let turning = true;
  const turn = () => {
    inTurn = 0;
    if (turning) setImmediate(turn);
  };
  setImmediate(turn);
  const count = () => {
    inTurn++;
    most = Math.max(most, inTurn);
  };
  socket.on('data', count);
  try {
    const { rows } = await client.query(BIG);
    return { most, rows: rows.length };
  } finally {
    turning = false;
    socket.off('data', count);
  }
}

describe('a big answer read in turns of the loop', () => {
  it('reaches a paced client one chunk per turn, all of it', async () => {
    const client = new Client({ connectionString: serverUrl() });
    await client.connect();
    try {
      readInTurns(client);
      readInTurns(client); // once is enough: a second call adds nothing
      const { most, rows } = await mostChunksInOneTurn(client);
      expect(rows).toBe(20_000);
      expect(most).toBe(1);
      // The client goes on answering after it.
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('is what the service’s pools do, from the first client TypeORM opened to those made later', async () => {
    const dataSource = await openDataSource(createDataSource({ url: serverUrl(), poolSize: 2 }), () => undefined);
    try {
      const pool = (dataSource.driver as unknown as { master: Pool }).master;
      const clients = [await pool.connect(), await pool.connect()];
      try {
        for (const client of clients) expect((await mostChunksInOneTurn(client)).most).toBe(1);
      } finally {
        for (const client of clients) client.release();
      }
    } finally {
      await closeDataSource(dataSource);
    }
  });
});
