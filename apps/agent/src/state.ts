/**
 * The CLI's memory between calls: which runs it holds, one per task, and which one is current (the
 * last claimed or picked with --task). A small JSON file, by default `.board-agent.json` in the
 * current folder (one agent working in one folder), or wherever `BOARD_AGENT_STATE` points. It
 * never holds the token. A run is added on claim (or when found open on the board) and dropped when
 * it ends (done, failed, stopped, lost, handed over, taken over); the file goes when none is left.
 * A second claim keeps the first run: both stay reachable with --task.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface CurrentRun {
  /** The BOARD_URL it was claimed on: a run of another board is not used. */
  url: string;
  runId: string;
  taskId: string;
  taskKey: string;
  projectId: string;
  claimedAt: string;
}

/** What the file holds: the runs by task id, and the current task. */
interface Saved {
  current: string | null;
  runs: Record<string, CurrentRun>;
}

const isRun = (value: unknown): value is CurrentRun =>
  !!value && typeof (value as CurrentRun).runId === 'string' && typeof (value as CurrentRun).taskId === 'string' && typeof (value as CurrentRun).url === 'string';

export class StateFile {
  readonly path: string;

  constructor(env: NodeJS.ProcessEnv, cwd = process.cwd()) {
    this.path = resolve(cwd, env.BOARD_AGENT_STATE?.trim() || '.board-agent.json');
  }

  private load(): Saved {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return { current: null, runs: {} };
    }
    // A file of an earlier version held one run at the top level.
    if (isRun(parsed)) return { current: parsed.taskId, runs: { [parsed.taskId]: parsed } };
    const saved = parsed as Partial<Saved> | null;
    const runs = Object.fromEntries(Object.entries(saved?.runs ?? {}).filter(([taskId, run]) => isRun(run) && run.taskId === taskId));
    return { current: typeof saved?.current === 'string' && runs[saved.current] ? saved.current : null, runs };
  }

  private save(saved: Saved): void {
    if (!Object.keys(saved.runs).length) return this.clear();
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 });
  }

  /** The runs held on this board, the current one first (null when none is current). */
  runs(url: string): { current: CurrentRun | null; runs: CurrentRun[] } {
    const saved = this.load();
    const runs = Object.values(saved.runs).filter((run) => run.url === url);
    const current = runs.find((run) => run.taskId === saved.current) ?? null;
    return { current, runs: current ? [current, ...runs.filter((run) => run !== current)] : runs };
  }

  /** The current run of this board: the one marked current, else the only one held. */
  read(url: string): CurrentRun | null {
    const { current, runs } = this.runs(url);
    return current ?? (runs.length === 1 ? runs[0] : null);
  }

  /** Holds the run (replacing an older one of the same task); `current` makes it the one commands act on. */
  write(run: CurrentRun, options: { current?: boolean } = { current: true }): void {
    const saved = this.load();
    saved.runs[run.taskId] = run;
    if (options.current !== false) saved.current = run.taskId;
    this.save(saved);
  }

  /** Lets go of a task's run (it ended). */
  drop(taskId: string): void {
    const saved = this.load();
    delete saved.runs[taskId];
    if (saved.current === taskId) saved.current = null;
    this.save(saved);
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}
