import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../support/database';
import { freePort } from '../support/free-port';
import { READY, ServiceProcess } from '../support/service-process';

const STOPPED = 'Task board stopped.';
const CUT = 'terminating connection due to administrator command';


/** Issue "The first hour", point 6: one line when ready, none per route, a clean stop on Ctrl-C. */
describe('starting and stopping the service', () => {
  const started: ServiceProcess[] = [];
  afterAll(() => Promise.all(started.map((s) => s.kill())));

  async function startAndInterrupt(env: Record<string, string>, readyWithinMs: number): Promise<{ output: string; code: number | null }> {
    const service = new ServiceProcess(env);
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
