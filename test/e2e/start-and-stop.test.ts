import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../support/database';
import { freePort } from '../support/free-port';

const ROOT = join(__dirname, '..', '..');
const READY = /^Task board is ready at (http:\/\/127\.0\.0\.1:(\d+)\/) — open it to create the first account$/m;
const STOPPED = 'Task board stopped.';
const CUT = 'terminating connection due to administrator command';

/** The service as `npm start` runs it (main.ts), from the sources, with its output kept. */
class Service {
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

  kill(): void {
    if (this.process.exitCode === null) process.kill(-this.process.pid!, 'SIGKILL');
  }
}

/** Issue "The first hour", point 6: one line when ready, none per route, a clean stop on Ctrl-C. */
describe('starting and stopping the service', () => {
  const started: Service[] = [];
  afterAll(() => started.forEach((s) => s.kill()));

  async function startAndInterrupt(env: Record<string, string>, readyWithinMs: number): Promise<{ output: string; code: number | null }> {
    const service = new Service(env);
    started.push(service);
    const url = await service.ready(readyWithinMs);
    const health = await fetch(`${url}api/health`);
    expect(await health.json()).toEqual({ ok: true });
    // A page was opened: the pool holds connections that the stop must close, not have cut.
    expect((await fetch(`${url}api/version`)).status).toBe(200);
    const code = await service.interrupt();
    return { output: service.output, code };
  }

  function expectQuietStartAndCleanStop(output: string, code: number | null): void {
    expect(code).toBe(0);
    expect(output.match(new RegExp(READY.source, 'gm'))).toHaveLength(1);
    expect(output).not.toContain('Mapped {');
    expect(output).not.toContain('dependencies initialized');
    expect(output).not.toContain(CUT);
    expect(output).not.toMatch(/\bWARN\b|\bERROR\b/);
    expect(output.trimEnd().split('\n').at(-1)).toBe(STOPPED);
  }

  it('with DATABASE_URL: says where to go once, no route lines; Ctrl-C stops it with a last line', async () => {
    const database = await createDatabase();
    try {
      const { output, code } = await startAndInterrupt({ DATABASE_URL: database.url }, 60_000);
      expectQuietStartAndCleanStop(output, code);
    } finally {
      await database.drop();
    }
  }, 90_000);

  it('with the embedded PostgreSQL: Ctrl-C cuts no connection, and the server stops after the service', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'task-board-start-'));
    // Started as root, the server runs as the postgres user, which must reach its folder.
    chmodSync(dataDir, 0o777);
    try {
      const port = await freePort();
      const { output, code } = await startAndInterrupt({ SERVICE_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) }, 120_000);
      expectQuietStartAndCleanStop(output, code);
      // The server is gone too: nothing listens on its port any more.
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
