#!/usr/bin/env node
'use strict';
/**
 * Before and after on a shared machine: runs `bench/run.js` on two built checkouts in turns
 * (A B B A A B …, so neither always goes first or second while the machine's load drifts) and
 * prints, per scenario, each side's median of the runs' figures, the spread of each side's own
 * runs (the noise: the same build measured again), and a verdict: "worse" only when every run of
 * B is beyond every run of A by more than the larger of the two spreads.
 *
 *   node bench/compare.js <dir A (before)> <dir B (after)> [rounds=2]
 *   BENCH_ONLY=writes BENCH_WRITE_OPS="move,value PUT" node bench/compare.js /work/wt-before . 3
 *
 * Each directory must hold a build (`npm run build`). Every BENCH_* variable is passed through to
 * each run (BENCH_DATABASE_URL, BENCH_ONLY, …). Rounds: each round is one run of each side, so
 * 2 rounds = A B B A. The calibration figure of every run is printed too. BENCH_COMPARE_OUT=dir
 * keeps each run's own table there.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const [dirA, dirB, roundsArg] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: node bench/compare.js <dir A (before)> <dir B (after)> [rounds=2]');
  process.exit(2);
}
const rounds = Math.max(1, Number(roundsArg || 2));
const sides = { A: path.resolve(dirA), B: path.resolve(dirB) };
for (const dir of Object.values(sides)) {
  if (!fs.existsSync(path.join(dir, 'dist', 'apps', 'api', 'src', 'main.js'))) throw new Error(`${dir} has no build: run npm run build there`);
}

/** Runs per side, in turns: A B, then B A, then A B, … */
const order = [];
for (let r = 0; r < rounds; r++) order.push(...(r % 2 === 0 ? ['A', 'B'] : ['B', 'A']));

const runs = { A: [], B: [] };
// BENCH_COMPARE_OUT=dir keeps every run's table (<n>-<side>.txt) and raw JSON there.
const keep = process.env.BENCH_COMPARE_OUT ? path.resolve(process.env.BENCH_COMPARE_OUT) : null;
if (keep) fs.mkdirSync(keep, { recursive: true });
const tmp = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-'));
order.forEach((side, i) => {
  const json = path.join(tmp, `${i}-${side}.json`);
  process.stderr.write(`[compare] run ${i + 1}/${order.length}: ${side} (${sides[side]})\n`);
  const result = spawnSync(process.execPath, [path.join(__dirname, 'run.js')], {
    env: { ...process.env, BENCH_SERVICE_DIR: sides[side], BENCH_JSON: json },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  fs.writeFileSync(path.join(tmp, `${i + 1}-${side}.txt`), result.stdout ?? '');
  if (result.status !== 0) throw new Error(`run ${i + 1} (${side}) failed with status ${result.status}`);
  const data = JSON.parse(fs.readFileSync(json, 'utf8'));
  const calibration = /calibration[^:]*: (\d+) at start, (\d+) at end/.exec(data.machine);
  runs[side].push({ results: data.results, calibration: calibration ? `${calibration[1]}→${calibration[2]}` : '?', load: /load average at start ([\d.]+)/.exec(data.machine)?.[1] });
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** The figure compared: throughput where the scenario has one (higher is better), else the median latency. */
const figureOf = (r) => (Number.isFinite(r.throughput) && r.throughput > 0 ? { value: r.throughput, higherIsBetter: true, unit: '/s' } : { value: r.median, higherIsBetter: false, unit: ' ms' });

const scenarios = [...new Set(runs.A.flatMap((run) => run.results.map((r) => r.scenario)))];
const rows = [];
for (const scenario of scenarios) {
  const per = (side) => runs[side].map((run) => run.results.find((r) => r.scenario === scenario)).filter(Boolean);
  const a = per('A');
  const b = per('B');
  if (a.length === 0 || b.length === 0) continue;
  const { higherIsBetter, unit } = figureOf(a[0]);
  const av = a.map((r) => figureOf(r).value);
  const bv = b.map((r) => figureOf(r).value);
  const spread = (xs) => (xs.length > 1 ? (Math.max(...xs) - Math.min(...xs)) / median(xs) : 0);
  const noise = Math.max(spread(av), spread(bv));
  const change = (median(bv) - median(av)) / median(av);
  const worseBy = higherIsBetter ? (Math.min(...av) - Math.max(...bv)) / median(av) : (Math.min(...bv) - Math.max(...av)) / median(av);
  const betterBy = higherIsBetter ? (Math.min(...bv) - Math.max(...av)) / median(av) : (Math.min(...av) - Math.max(...bv)) / median(av);
  // One run per side has no noise figure to judge by.
  const verdict = a.length < 2 || b.length < 2 ? 'one run: no noise figure' : worseBy > 0 && worseBy > noise ? 'WORSE' : betterBy > 0 && betterBy > noise ? 'better' : 'within noise';
  const cpuOf = (rs, part) => median(rs.map((r) => r.cpu?.[part] ?? NaN).filter(Number.isFinite));
  const cpu = (rs) => cpuOf(rs, 'service');
  // What this machine could do if the service cost nothing: its cores over the CPU the same
  // operations still cost PostgreSQL's backends and the bench's own client (issue 29's question:
  // can a faster service alone double a figure?).
  const bound = (rs) => {
    const floor = cpuOf(rs, 'pg') + cpuOf(rs, 'client');
    return Number.isFinite(floor) && floor > 0 ? `${Math.round((os.cpus().length * 1000) / floor)}/s` : '-';
  };
  rows.push([
    scenario,
    `${median(av).toFixed(1)}${unit}`,
    `${median(bv).toFixed(1)}${unit}`,
    `${change >= 0 ? '+' : ''}${(100 * change).toFixed(0)} %`,
    `±${(50 * noise).toFixed(0)} %`,
    `${cpu(a).toFixed(2)} / ${cpu(b).toFixed(2)} ms`,
    `${cpuOf(a, 'pg').toFixed(2)} / ${cpuOf(b, 'pg').toFixed(2)} ms`,
    `${cpuOf(a, 'client').toFixed(2)} / ${cpuOf(b, 'client').toFixed(2)} ms`,
    `${bound(a)} / ${bound(b)}`,
    verdict,
  ]);
}

const head = ['scenario', 'A (before)', 'B (after)', 'change', 'noise', 'service CPU/op A / B', 'PostgreSQL CPU/op', 'client CPU/op', 'free-service bound', 'verdict'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
const out = [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line), ''];
out.push(`runs in this order: ${order.join(' ')}; ${rounds} per side; A = ${sides.A}; B = ${sides.B}`);
for (const side of ['A', 'B']) {
  out.push(`${side}: calibration (round trips/s, start→end) ${runs[side].map((r) => r.calibration).join(', ')}; load average at start ${runs[side].map((r) => r.load).join(', ')}`);
}
out.push('figure: throughput where the scenario has one, else the median latency; noise: half the spread of a side\'s own runs');
out.push('(max − min over the median, the larger side); WORSE only when every B run is beyond every A run by more than that spread.');
out.push(`free-service bound: ${os.cpus().length} cores ÷ (PostgreSQL's + the bench client's CPU per operation): the most this machine could do if the service cost nothing.`);
process.stdout.write(out.join('\n') + '\n');
if (keep) process.stdout.write(`every run's table and raw figures: ${keep}\n`);
else fs.rmSync(tmp, { recursive: true, force: true });
