import { Clock, DAY } from '@board/kernel';

/**
 * The tests' own computation of chart data (independent of the service): what each task holds
 * and whether it counts at the end of each day, by replaying a script's events in plain
 * TypeScript. An event is about one followed property: `value` is that property's value.
 */
// A script runs in the recent past (restoring is checked against the database's own time, 30 days).
export const DAY0 = Math.floor(Date.now() / DAY) * DAY - 15 * DAY;
/** `YYYY-MM-DD` of day `n` of the script. */
export const scriptDay = (n: number) => new Date(DAY0 + n * DAY).toISOString().slice(0, 10);

/** The clock a script moves: the service stamps tasks with it (feed lines are re-dated by the test). */
export class ScriptClock extends Clock {
  t = DAY0 - DAY;
  now(): Date {
    return new Date(this.t);
  }
}

export type ChartEvent = { at: number; task: string; value?: string | null; present?: boolean; created?: boolean };

/** The independent computation: state of every task at the end of each day by replaying the script. */
export function expected(events: readonly ChartEvent[], tasks: ReadonlyMap<string, { project: string }>, days: string[], opts: {
  projects: string[];
  over: (project: string, value: string | null) => boolean;
  flowOptions?: string[];
  flowProject?: string;
}) {
  const ends = days.map((d) => Date.parse(`${d}T00:00:00Z`) + DAY);
  const stateAt = (task: string, end: number) => {
    let exists = false;
    let value: string | null = null;
    let present = false;
    for (const e of events) {
      if (e.task !== task || e.at >= end) continue;
      if (e.created) (exists = true), (present = true);
      if (e.value !== undefined) value = e.value;
      if (e.present !== undefined) present = e.present;
    }
    return { counts: exists && present, value };
  };
  const mine = [...tasks.entries()].filter(([, x]) => opts.projects.includes(x.project));
  const total = ends.map((end) => mine.filter(([id]) => stateAt(id, end).counts).length);
  const done = ends.map((end) =>
    mine.filter(([id, x]) => {
      const s = stateAt(id, end);
      return s.counts && opts.over(x.project, s.value);
    }).length,
  );
  // Throughput: value events (creation included) that turn a task over, on days it counts at the end of.
  const throughput = ends.map((end) => {
    let n = 0;
    for (const [id, x] of mine) {
      let over = false;
      for (const e of events.filter((v) => v.task === id && v.value !== undefined)) {
        const now = opts.over(x.project, e.value!);
        if (now && !over && e.at >= end - DAY && e.at < end && stateAt(id, end).counts) n++;
        over = now;
      }
    }
    return n;
  });
  const flow = (opts.flowOptions ?? []).concat('none').map((key) =>
    ends.map(
      (end) =>
        mine.filter(([id, x]) => {
          if (x.project !== opts.flowProject) return false;
          const s = stateAt(id, end);
          return s.counts && (key === 'none' ? !opts.flowOptions!.includes(s.value as string) : s.value === key);
        }).length,
    ),
  );
  return { total, done, throughput, flow };
}
