#!/usr/bin/env node
'use strict';
/**
 * How many small write transactions per second this PostgreSQL commits from 16 connections, with
 * and without a pg_notify in each. Every write of the service notifies (the stream's change
 * notice, the webhook wake-up), and PostgreSQL serialises the commits of notifying transactions
 * behind one cluster-wide lock held until the commit record is flushed (async.c,
 * PreCommit_Notify; pg_stat_activity shows the waiters as Lock:object). The figure is a ceiling
 * on the service's write rate on this machine, whatever the service does.
 *
 *   node bench/notify-ceiling.js <database-url> [seconds=3] [connections=16]
 *
 * Works in a table of its own (bench_notify_probe), dropped at the end.
 */
const { Client } = require('pg');
const { performance } = require('node:perf_hooks');

const url = process.argv[2];
const seconds = Number(process.argv[3] || 3);
const connections = Number(process.argv[4] || 16);
if (!url) {
  console.error('usage: node bench/notify-ceiling.js <database-url> [seconds] [connections]');
  process.exit(2);
}

async function round(clients, notify) {
  let count = 0;
  const waits = new Map();
  const until = performance.now() + seconds * 1000;
  const monitor = clients[0];
  const sampling = (async () => {
    let samples = 0;
    while (performance.now() < until) {
      const { rows } = await monitor.query(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS w, count(*)::int AS n FROM pg_stat_activity
          WHERE application_name = 'bench-notify-probe' AND state = 'active' AND pid <> pg_backend_pid() GROUP BY 1`,
      );
      samples++;
      for (const r of rows) waits.set(r.w, (waits.get(r.w) || 0) + r.n);
      await new Promise((r) => setTimeout(r, 20));
    }
    return samples;
  })();
  await Promise.all(
    clients.slice(1).map(async (c, i) => {
      while (performance.now() < until) {
        await c.query('BEGIN');
        await c.query('UPDATE bench_notify_probe SET n = n + 1 WHERE id = $1', [i]);
        if (notify) await c.query(`SELECT pg_notify('bench_notify_probe', $1)`, [String(i)]);
        await c.query('COMMIT');
        count++;
      }
    }),
  );
  const samples = await sampling;
  const avg = [...waits].map(([w, n]) => `${w} ${(n / samples).toFixed(1)}`).join(', ');
  return { perSecond: count / seconds, waits: avg };
}

async function main() {
  const clients = [];
  for (let i = 0; i <= connections; i++) {
    const c = new Client({ connectionString: url, application_name: i === 0 ? 'bench-notify-monitor' : 'bench-notify-probe' });
    await c.connect();
    clients.push(c);
  }
  try {
    await clients[0].query('CREATE TABLE IF NOT EXISTS bench_notify_probe (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0)');
    await clients[0].query('INSERT INTO bench_notify_probe (id) SELECT g FROM generate_series(0, $1) g ON CONFLICT DO NOTHING', [connections]);
    const version = (await clients[0].query('SHOW server_version')).rows[0].server_version;
    const sync = (await clients[0].query('SHOW synchronous_commit')).rows[0].synchronous_commit;
    console.log(`PostgreSQL ${version}, synchronous_commit ${sync}, ${connections} connections, ${seconds} s each`);
    for (const notify of [false, true, false, true]) {
      const r = await round(clients, notify);
      console.log(`${notify ? 'with pg_notify   ' : 'without pg_notify'}: ${r.perSecond.toFixed(0)} commits/s; active connections: ${r.waits || 'none sampled'}`);
    }
  } finally {
    await clients[0].query('DROP TABLE IF EXISTS bench_notify_probe').catch(() => undefined);
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
