import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection on demand. Jest runs every suite in one process (--runInBand), so by
 * the time this probe runs the heap holds what a hundred suites before it left behind, and an old
 * generation collection of that heap would land in the watched turn: a cost of the test run, not
 * of the request. Collecting before the watch leaves the request's own garbage to be counted.
 */
const collect: () => void = (() => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return () => undefined;
  }
})();

export interface LoopWatch {
  /** Stops watching; answers the longest block seen, in ms (see watchLoop). */
  stop(): { blockedMs: number; longestGapMs: number };
}

/** The main thread's own CPU file: its time on a CPU in ns, first field (Linux). */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * CPU time of the thread that runs the event loop, in ms. On Linux it is that thread's alone
 * (schedstat), so the garbage collector's helper threads marking beside a running loop do not
 * count; elsewhere it falls back to the whole process.
 */
function loopCpuMs(): number {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

/**
 * A timer-drift probe of this process's event loop: a timer due every 2 ms notes how long each
 * turn really took (`longestGapMs`, wall time). On a shared machine a turn also stretches while
 * the process waits for a CPU, which no code of ours can help; so a turn counts as blocked for
 * the CPU time the loop's thread spent in it, never more than its wall time (`blockedMs`). A
 * long synchronous piece of work shows in both; a busy neighbour only in the first.
 */
export function watchLoop(): LoopWatch {
  collect();
  let lastWall = performance.now();
  let lastCpu = loopCpuMs();
  let blockedMs = 0;
  let longestGapMs = 0;
  const tick = () => {
    const wall = performance.now();
    const cpu = loopCpuMs();
    const gap = wall - lastWall;
    blockedMs = Math.max(blockedMs, Math.min(gap, cpu - lastCpu));
    longestGapMs = Math.max(longestGapMs, gap);
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, 2);
  return {
    stop() {
      tick();
      clearInterval(timer);
      return { blockedMs, longestGapMs };
    },
  };
}
