'use strict';
/**
 * Preloaded into the streams10k instance (`--expose-gc --require bench/heap-probe.js`): on SIGUSR2
 * it collects garbage and writes `process.memoryUsage()` to BENCH_HEAP_PROBE_FILE, so the bench
 * can tell what the open streams keep alive (heap) from what the process merely holds (RSS).
 * Benchmark processes only.
 */
const fs = require('node:fs');

const file = process.env.BENCH_HEAP_PROBE_FILE;
if (file && typeof global.gc === 'function') {
  process.on('SIGUSR2', () => {
    global.gc();
    global.gc();
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(process.memoryUsage()));
    fs.renameSync(tmp, file);
  });
}
