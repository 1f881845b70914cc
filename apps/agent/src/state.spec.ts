import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateFile, type CurrentRun } from './state';

const URL_A = 'http://127.0.0.1:3000';
const run = (taskId: string, url = URL_A): CurrentRun => ({ url, runId: `run-${taskId}`, taskId, taskKey: `KEY-${taskId}`, projectId: 'p', claimedAt: '2026-01-01T00:00:00.000Z' });

describe('StateFile', () => {
  let folder: string;
  let state: StateFile;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'agent-state-'));
    state = new StateFile({}, folder);
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('holds several runs by task; the last written is current, and dropping it leaves the other reachable', () => {
    state.write(run('1'));
    state.write(run('2'));
    expect(state.read(URL_A)?.taskId).toBe('2');
    expect(state.runs(URL_A).runs.map((r) => r.taskId)).toEqual(['2', '1']);
    state.drop('2');
    // One run left and none current: it is the one commands act on.
    expect(state.runs(URL_A).current).toBeNull();
    expect(state.read(URL_A)?.taskId).toBe('1');
    state.drop('1');
    expect(existsSync(state.path)).toBe(false);
  });

  it('keeps the current run when another is held without becoming current', () => {
    state.write(run('1'));
    state.write(run('2'), { current: false });
    expect(state.read(URL_A)?.taskId).toBe('1');
    state.drop('1');
    expect(state.read(URL_A)?.taskId).toBe('2');
  });

  it('reads none of another board, and with several and none current names no run', () => {
    state.write(run('1', 'http://other'));
    expect(state.read(URL_A)).toBeNull();
    state.write(run('2'), { current: false });
    state.write(run('3'), { current: false });
    expect(state.read(URL_A)).toBeNull();
    expect(state.runs(URL_A).runs).toHaveLength(2);
    expect(JSON.parse(readFileSync(state.path, 'utf8')).runs['1'].url).toBe('http://other');
  });

  it('reads the one-run file of an earlier version, and ignores a broken one', () => {
    writeFileSync(state.path, JSON.stringify(run('7')));
    expect(state.read(URL_A)?.runId).toBe('run-7');
    writeFileSync(state.path, '{ not json');
    expect(state.read(URL_A)).toBeNull();
    writeFileSync(state.path, JSON.stringify({ current: 'x', runs: { x: { taskId: 'y' } } }));
    expect(state.runs(URL_A)).toEqual({ current: null, runs: [] });
  });
});
