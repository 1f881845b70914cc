/**
 * `board-agent` (apps/agent) for extensions.md § 1 (agents at work), run as a child process against
 * a real instance: `next` claims from the work queue (exit 9 when nothing is left), `ask` with
 * options waits for a person's choice on the card and prints it, `link` adds what the run produced,
 * `usage` reports the run's totals and `usage --report` prints the project's usage as a table.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expectStatus } from '../support/fixtures';
import { createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const BIN = resolve(__dirname, '../../apps/agent/bin/board-agent.js');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('board-agent CLI at work', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let folder: string;
  let env: Record<string, string>;

  const cli = (args: string[], extra: Record<string, string> = {}): { done: Promise<Outcome> } => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env, ...extra }, cwd: folder });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return { done: new Promise((ok) => child.on('close', (code) => ok({ code, stdout, stderr }))) };
  };
  const run = (...args: string[]) => cli(args).done;
  const state = () => {
    const file = JSON.parse(readFileSync(join(folder, '.board-agent.json'), 'utf8'));
    return file.runs[file.current];
  };
  const task = async (title: string) => (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title }), 201)).task;
  const runOf = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;
  const until = async (check: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 8000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    projectId = (await createProject(owner.client, 'Agent work', 'AWK')).id;
    const token = (await createAgent(owner.client, projectId, 'Scripty')).token;
    folder = mkdtempSync(join(tmpdir(), 'board-agent-work-'));
    env = { BOARD_URL: t.api.replace(/\/api$/, ''), BOARD_TOKEN: token, BOARD_BEAT_MS: '200' };
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t?.close();
  });

  it('claims the next task of the queue as the current run, and exits 9 when nothing is left', async () => {
    const first = await task('First in line');
    const second = await task('Second in line');
    const took = await run('next', '--goal', 'Clear the queue', '--plan', 'read; fix');
    expect(took).toEqual({ code: 0, stdout: `Claimed ${first.key} (First in line); run ${state().runId}\nrunning · read\n`, stderr: '' });
    expect(state()).toMatchObject({ taskId: first.id, taskKey: first.key, projectId });
    expect(await runOf(state().runId)).toMatchObject({ goal: 'Clear the queue', status: 'running' });
    // Run commands act on the run next claimed.
    expect((await run('report', '--log', 'on it')).code).toBe(0);
    expect((await runOf(state().runId)).lastLog).toBe('on it');

    const again = await run('next', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ task: { id: second.id, key: second.key, title: 'Second in line' }, run: { status: 'running' } });
    expect(again.stderr).toMatch(/You now hold another open run besides/);

    const empty = await run('next');
    expect(empty).toEqual({ code: 9, stdout: '', stderr: 'board-agent: Nothing left in the queue for you.\n' });
    const bad = await run('next', '--view', 'nope');
    expect([bad.code, bad.stderr]).toEqual([1, 'board-agent: That is not a view id.\n']);
    expect((await run('done')).code).toBe(0);
    expect((await run('done', '--task', first.key)).code).toBe(0);
  });

  it('asks with options, waits for a person’s choice on the card, prints it and goes on running', async () => {
    const picked = await task('Pick branches');
    expect((await run('claim', picked.key, '--goal', 'Branches picked')).code).toBe(0);
    const { runId } = state();
    const asking = cli(['ask', 'Which branches?', '--option', 'main', '--option', 'develop', '--option', 'release', '--multiple']);
    await until(async () => (await runOf(runId)).status === 'waiting', 'the run to wait');
    expect((await runOf(runId)).question).toMatchObject({ text: 'Which branches?', options: ['main', 'develop', 'release'], multiple: true, answer: null });
    await expectStatus(owner.client.post(`/runs/${runId}/answer`, { answer: ['release', 'main'] }), 200);
    expect(await asking.done).toEqual({ code: 0, stdout: 'main\nrelease\n', stderr: 'board-agent: Olive answered:\n' });
    expect(await runOf(runId)).toMatchObject({ status: 'running', control: null });

    // A free question answered on the card prints the text; --multiple needs options.
    const free = cli(['ask', 'Any wishes?', '--json']);
    await until(async () => (await runOf(runId)).question?.text === 'Any wishes?', 'the second question');
    await expectStatus(owner.client.post(`/runs/${runId}/answer`, { answer: 'Keep it short.' }), 200);
    const freeAnswer = await free.done;
    expect(freeAnswer.code).toBe(0);
    expect(JSON.parse(freeAnswer.stdout)).toEqual({ answer: { text: 'Keep it short.', choices: null, by: 'Olive', via: 'answer' } });
    expect((await run('ask', 'x', '--multiple')).code).toBe(2);
    const tooFew = await run('ask', 'Which?', '--option', 'only');
    expect([tooFew.code, tooFew.stderr]).toEqual([1, 'board-agent: A question offers 2 to 10 different options, each 1 to 100 characters.\n']);
    expect((await run('done')).code).toBe(0);
  });

  it('links what the run produced and reports usage; usage --report prints the project’s usage', async () => {
    const work = await task('Ship it');
    expect((await run('claim', work.key, '--goal', 'Shipped')).code).toBe(0);
    const { runId } = state();
    expect(await run('link', 'https://git.example.com/pr/7', '--title', 'Fix login', '--kind', 'pr')).toEqual({ code: 0, stdout: '1 link on the run:\n  pr: Fix login <https://git.example.com/pr/7>\n', stderr: '' });
    expect((await run('link', 'https://preview.example.com')).stdout).toBe('2 links on the run:\n  pr: Fix login <https://git.example.com/pr/7>\n  other: <https://preview.example.com>\n');
    expect((await runOf(runId)).links.map((l: { url: string; kind: string }) => [l.url, l.kind])).toEqual([
      ['https://git.example.com/pr/7', 'pr'],
      ['https://preview.example.com', 'other'],
    ]);
    const badKind = await run('link', 'https://x.example.com', '--kind', 'video');
    expect([badKind.code, badKind.stderr]).toEqual([1, 'board-agent: Link kind must be one of: pr, branch, commit, preview, session, doc, other.\n']);

    expect(await run('usage', '--input-tokens', '1200', '--output-tokens', '300', '--cost-micros', '45000', '--model', 'm-1')).toEqual({
      code: 0,
      stdout: 'usage: 1200 input tokens, 300 output tokens, cost 0.0450, model m-1\n',
      stderr: '',
    });
    expect((await runOf(runId)).usage).toEqual({ inputTokens: 1200, outputTokens: 300, costMicros: 45000, model: 'm-1' });
    const lower = await run('usage', '--input-tokens', '10');
    expect([lower.code, lower.stderr]).toEqual([1, "board-agent: Usage only grows: send the run's totals so far.\n"]);
    expect((await run('usage')).code).toBe(2);

    const report = await run('usage', '--report');
    expect(report.code).toBe(0);
    const lines = report.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Usage \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['agent', 'runs', 'input tokens', 'output tokens', 'cost'],
      ['Scripty', '1', '1200', '300', '0.0450'],
      ['total', '1', '1200', '300', '0.0450'],
    ]);
    const json = JSON.parse((await run('usage', '--report', '--json')).stdout);
    expect(json.total).toEqual({ inputTokens: 1200, outputTokens: 300, costMicros: 45000, runs: 1 });
    const badDay = await run('usage', '--report', '--from', 'yesterday');
    expect(badDay.code).toBe(1);
    expect((await run('done')).code).toBe(0);
  });
});
