#!/usr/bin/env node
'use strict';
/**
 * The floor of a Node service on this machine (issue 29): a bare `node:http` server with none of
 * the service's framework, checks or domain, started by `bench/run.js` (`BENCH_ONLY=floor`) beside
 * the real one and loaded by the same client with the same requests. Any PUT reads its JSON body
 * and answers `{"value":…,"dropped":[]}`; with FLOOR_ROUND_TRIPS=n it first makes n round trips
 * to PostgreSQL one after the other (prepared `SELECT $1::int`, nearly free for the server), as
 * many as a value PUT makes, through `pg`'s pool of FLOOR_POOL_SIZE connections.
 *
 *   FLOOR_PORT=0 FLOOR_DATABASE_URL=… FLOOR_ROUND_TRIPS=3 node bench/floor-server.js   # prints its port
 *
 * Its CPU per request is what any Node server pays for the exchange (and the driver's round
 * trips) before doing anything of its own: the part of the service's CPU no refactoring removes.
 */
const http = require('node:http');
const { Pool } = require('pg');

const trips = Number(process.env.FLOOR_ROUND_TRIPS || 0);
const pool = trips > 0 ? new Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: Number(process.env.FLOOR_POOL_SIZE || 10), application_name: 'task-board-floor' }) : null;

async function roundTrips() {
  const client = await pool.connect();
  try {
    for (let i = 0; i < trips; i++) await client.query({ name: 'floor', text: 'SELECT $1::int AS n', values: [i] });
  } finally {
    client.release();
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const answer = () => {
      const text = JSON.stringify({ value: body?.value ?? null, dropped: [] });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
      res.end(text);
    };
    if (!pool) return answer();
    roundTrips().then(answer, (error) => {
      res.writeHead(500).end(String(error.message));
    });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.FLOOR_PORT || 0), '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void (pool ? pool.end() : Promise.resolve()).then(() => process.exit(0));
});
