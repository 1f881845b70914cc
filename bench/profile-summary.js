#!/usr/bin/env node
'use strict';
/**
 * Summarises a V8 CPU profile (node --cpu-prof) of the service: self time by function and by
 * package, so a benchmark run can say where the time went.
 *
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=.data/bench-profiles" BENCH_ONLY=writes npm run bench
 *   node bench/profile-summary.js .data/bench-profiles/<file>.cpuprofile [top=30]
 */
const fs = require('node:fs');
const path = require('node:path');

const file = process.argv[2];
const top = Number(process.argv[3] || 30);
if (!file) {
  console.error('usage: node bench/profile-summary.js <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) || 0) + (dt[i] || 0));
const totalUs = dt.reduce((a, b) => a + b, 0);

const where = (cf) => {
  const url = cf.url || '';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/')) return 'service: ' + url.slice(url.indexOf('/dist/') + 6).split('/').slice(0, 3).join('/');
  if (url.startsWith('node:')) return 'node core';
  return url ? path.basename(url) : '(native / vm)';
};

const fnSelf = new Map();
const pkgSelf = new Map();
for (const [id, us] of self) {
  const node = byId.get(id);
  const cf = node.callFrame;
  const name = `${cf.functionName || '(anonymous)'}  ${cf.url ? `${cf.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${cf.lineNumber + 1}` : ''}`;
  fnSelf.set(name, (fnSelf.get(name) || 0) + us);
  const pkg = where(cf);
  pkgSelf.set(pkg, (pkgSelf.get(pkg) || 0) + us);
}
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
console.log(`profile ${path.basename(file)}: ${(totalUs / 1e6).toFixed(1)} s sampled`);
console.log('\nself time by package:');
for (const [k, v] of [...pkgSelf].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(v)}  ${k}`);
console.log(`\nself time by function (top ${top}):`);
for (const [k, v] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(v)}  ${k}`);
