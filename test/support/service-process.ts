import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const READY = /^Task board is ready at (http:\/\/127\.0\.0\.1:(\d+)\/) — open it to create the first account$/m;

/** The service as `npm start` runs it (main.ts), from the sources, in a process of its own, with its output kept. */
export class ServiceProcess {
  readonly process: ChildProcess;
  output = '';
  private readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>) {
    // A process group of its own, like a terminal's foreground job: Ctrl-C signals the whole group.
    this.process = spawn(process.execPath, ['-r', './scripts/ts-register.js', 'apps/api/src/main.ts'], {
      cwd: ROOT,
      detached: true,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => (this.output += chunk.toString('utf8'));
    this.process.stdout!.on('data', keep);
    this.process.stderr!.on('data', keep);
    this.exited = new Promise((done) => this.process.on('exit', (code) => done(code)));
  }

  /** The address of the ready line, e.g. `http://127.0.0.1:41234/`. */
  async ready(timeoutMs: number): Promise<string> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const ready = READY.exec(this.output);
      if (ready) return ready[1];
      if (this.process.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ready line; the service said:\n${this.output}`);
  }

  /** What a terminal does on Ctrl-C: SIGINT to every process of the foreground group. */
  async interrupt(): Promise<number | null> {
    process.kill(-this.process.pid!, 'SIGINT');
    return this.exited;
  }

  /** Kills it on the spot (SIGKILL): no shutdown hook runs, nothing is handed over. */
  async kill(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) process.kill(-this.process.pid!, 'SIGKILL');
    await this.exited;
  }
}
