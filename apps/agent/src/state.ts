/**
 * The CLI's memory between calls: which run it is working on. A small JSON file, by default
 * `.board-agent.json` in the current folder (one agent working in one folder), or wherever
 * `BOARD_AGENT_STATE` points. It never holds the token. Written on claim, cleared when the run
 * ends (done, failed, stopped, lost, handed over, taken over).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface CurrentRun {
  /** The BOARD_URL it was claimed on: a state file of another board is not used. */
  url: string;
  runId: string;
  taskId: string;
  taskKey: string;
  projectId: string;
  claimedAt: string;
}

export class StateFile {
  readonly path: string;

  constructor(env: NodeJS.ProcessEnv, cwd = process.cwd()) {
    this.path = resolve(cwd, env.BOARD_AGENT_STATE?.trim() || '.board-agent.json');
  }

  read(url: string): CurrentRun | null {
    let parsed: Partial<CurrentRun>;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return null;
    }
    if (typeof parsed.runId !== 'string' || typeof parsed.taskId !== 'string' || parsed.url !== url) return null;
    return parsed as CurrentRun;
  }

  write(run: CurrentRun): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, JSON.stringify(run, null, 2) + '\n', { mode: 0o600 });
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}
