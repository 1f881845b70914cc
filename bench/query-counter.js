'use strict';
/**
 * Preloaded into the service by `BENCH_COUNT_QUERIES=1 npm run bench` (node --require), never in
 * production. Counts, per HTTP request, the SQL statements sent through `pg`, the time they took
 * (as the driver saw it, queueing on the connection included) and the time spent waiting for a
 * pool connection, and answers them as response headers:
 *
 *   x-bench-queries, x-bench-db-ms, x-bench-pool-wait-ms
 *
 * It patches only the driver and node:http inside the benchmark's own child process.
 */
const http = require('node:http');
const { AsyncLocalStorage } = require('node:async_hooks');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const Pool = require('pg-pool');

const als = new AsyncLocalStorage();

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === 'request') return als.run({ queries: 0, dbMs: 0, poolMs: 0 }, () => emit.call(this, event, ...args));
  return emit.call(this, event, ...args);
};

const writeHead = http.ServerResponse.prototype.writeHead;
http.ServerResponse.prototype.writeHead = function (...args) {
  const store = als.getStore();
  if (store && !this.headersSent) {
    this.setHeader('x-bench-queries', String(store.queries));
    this.setHeader('x-bench-db-ms', store.dbMs.toFixed(2));
    this.setHeader('x-bench-pool-wait-ms', store.poolMs.toFixed(2));
  }
  return writeHead.apply(this, args);
};

const timed = (store, key, callback) => {
  const t0 = performance.now();
  return function (...a) {
    store[key] += performance.now() - t0;
    return callback.apply(this, a);
  };
};

const query = Client.prototype.query;
Client.prototype.query = function (config, values, callback) {
  const store = als.getStore();
  if (!store) return query.call(this, config, values, callback);
  store.queries++;
  if (typeof values === 'function') return query.call(this, config, timed(store, 'dbMs', values));
  if (typeof callback === 'function') return query.call(this, config, values, timed(store, 'dbMs', callback));
  const t0 = performance.now();
  const result = query.call(this, config, values);
  if (result && typeof result.then === 'function') {
    const done = () => (store.dbMs += performance.now() - t0);
    result.then(done, done);
  }
  return result;
};

const connect = Pool.prototype.connect;
Pool.prototype.connect = function (callback) {
  const store = als.getStore();
  if (!store) return connect.call(this, callback);
  if (typeof callback === 'function') return connect.call(this, timed(store, 'poolMs', callback));
  const t0 = performance.now();
  const result = connect.call(this);
  const done = () => (store.poolMs += performance.now() - t0);
  result.then(done, done);
  return result;
};
