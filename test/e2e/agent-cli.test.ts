/**
 * `board-agent` (apps/agent) run as a child process, exactly as a script runs it, against a real
 * instance: claim by key, report, beat, ask (waits for a person's comment and prints it), done,
 * handover, rules, and the documented exit codes for a pause, a stop, a take-over, a lost lease, a
 * bad token, no service and wrong use. Several runs held at once (a second claim warns, --task picks),
 * an open run found on the board from another folder, and an ask that timed out said on the run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
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

describe('board-agent CLI', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let token: string;
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
  const saved = () => JSON.parse(readFileSync(join(folder, '.board-agent.json'), 'utf8'));
  /** The current run of the state file. */
  const state = () => {
    const file = saved();
    return file.runs[file.current];
  };
  const task = async (title: string) => (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title }), 201)).task;
  const runOf = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;
  const control = (runId: string, word: string) => expectStatus(owner.client.post(`/runs/${runId}/control`, { control: word }), 200);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    projectId = (await createProject(owner.client, 'Agent CLI', 'ACL')).id;
    token = (await createAgent(owner.client, projectId, 'Scripty')).token;
    folder = mkdtempSync(join(tmpdir(), 'board-agent-'));
    env = { BOARD_URL: t.api.replace(/\/api$/, ''), BOARD_TOKEN: token, BOARD_BEAT_MS: '200' };
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t?.close();
  });

  it('claims by key, reports, beats, reads the rules and finishes', async () => {
    const first = await task('Write the docs');
    const claimed = await run('claim', first.key.toLowerCase(), '--goal', 'Docs written', '--plan', 'outline; draft ;;review');
    expect(claimed).toMatchObject({ code: 0, stderr: '' });
    expect(claimed.stdout).toBe(`Claimed ACL-1 (Write the docs); run ${state().runId}\nrunning · outline\n`);
    const saved = state();
    expect(saved).toMatchObject({ taskId: first.id, taskKey: 'ACL-1', projectId, url: env.BOARD_URL });
    expect((await runOf(saved.runId)).steps).toEqual([
      { text: 'outline', state: 'active' },
      { text: 'draft', state: 'waiting' },
      { text: 'review', state: 'waiting' },
    ]);

    expect(await run('report', '--step-index', '1', '--step', 'drafting', '--log', 'outline agreed')).toEqual({ code: 0, stdout: 'running · drafting\n', stderr: '' });
    const after = await runOf(saved.runId);
    expect([after.stepsDone, after.lastLog]).toEqual([1, 'outline agreed']);
    expect(await run('beat')).toEqual({ code: 0, stdout: 'control: none\n', stderr: '' });

    await control(saved.runId, 'pause');
    const paused = await run('beat');
    expect([paused.code, paused.stdout]).toEqual([6, 'control: pause\n']);
    expect(paused.stderr).toMatch(/asked this run to pause/);
    expect((await run('report', '--status', 'paused')).code).toBe(0);
    await control(saved.runId, 'resume');
    expect(await run('beat', '--json')).toEqual({ code: 0, stdout: '{"control":"resume"}\n', stderr: '' });
    const resumed = await run('report', '--status', 'running', '--json');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ run: { status: 'running', control: null }, control: null });

    await expectStatus(owner.client.put(`/projects/${projectId}/rules`, { text: 'Ask before deleting anything.' }), 200);
    expect(await run('rules')).toEqual({ code: 0, stdout: 'Ask before deleting anything.\n', stderr: '' });

    expect(await run('done', '--log', 'all written')).toEqual({ code: 0, stdout: 'done · drafting\n', stderr: '' });
    expect((await runOf(saved.runId)).endedAt).not.toBeNull();
    expect(existsSync(join(folder, '.board-agent.json'))).toBe(false);
    const none = await run('beat');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^board-agent: No current run: claim a task first/);
  });

  it('asks a person, waits with the run waiting, and prints the answer', async () => {
    const question = await task('Pick a colour');
    expect((await run('claim', question.id, '--goal', 'Colour picked')).code).toBe(0);
    const { runId } = state();
    const asking = cli(['ask', 'Blue or green?']);
    const deadline = Date.now() + 8000;
    while ((await runOf(runId)).status !== 'waiting') {
      if (Date.now() > deadline) throw new Error('the run never waited');
      await new Promise((r) => setTimeout(r, 50));
    }
    // The question is the run's (shown on the card), not a comment; a person's comment still answers it.
    const read = (await expectStatus(owner.client.get(`/tasks/${question.id}`), 200)).task;
    expect(read.comments).toEqual([]);
    expect(read.run!.question).toMatchObject({ text: 'Blue or green?', options: null, answer: null });
    await expectStatus(owner.client.post(`/tasks/${question.id}/comments`, { body: 'Green, please.' }), 201);
    const answered = await asking.done;
    expect(answered).toEqual({ code: 0, stdout: 'Green, please.\n', stderr: 'board-agent: Olive answered in a comment:\n' });
    expect(await runOf(runId)).toMatchObject({ status: 'running', control: null });
    expect((await run('done')).code).toBe(0);
  });

  it('gives up asking after --timeout with exit 8, and the run says nobody answered', async () => {
    expect((await run('claim', (await task('Nobody answers')).key, '--goal', 'x')).code).toBe(0);
    const { runId } = state();
    const outcome = await run('ask', 'Anyone?', '--timeout', '1');
    expect([outcome.code, outcome.stderr]).toEqual([8, 'board-agent: No answer came within 1 seconds.\n']);
    // The card must not keep saying the run waits for a person.
    expect(await runOf(runId)).toMatchObject({ status: 'running', lastLog: 'asked "Anyone?" — no answer in 1 s' });
    expect((await run('done')).code).toBe(0);
  });

  it('holds several runs: a second claim warns and keeps both, --task picks, and another folder finds them on the board', async () => {
    const first = await task('First job');
    const second = await task('Second job');
    expect((await run('claim', first.key, '--goal', 'one')).stderr).toBe('');
    const firstRun = state().runId;
    const claimed = await run('claim', second.key, '--goal', 'two');
    expect(claimed.code).toBe(0);
    expect(claimed.stderr).toBe(
      `board-agent: You now hold another open run besides ${second.key}: ${first.key} (running). They stay open and keep their state; run commands act on ${second.key} unless you name another with --task <taskKey>.\n`,
    );
    const secondRun = state().runId;
    expect(Object.keys(saved().runs).sort()).toEqual([first.id, second.id].sort());

    // The current run is the last claimed; --task reaches the other one.
    expect((await run('report', '--log', 'on two')).code).toBe(0);
    expect((await run('report', '--task', first.key.toLowerCase(), '--log', 'on one')).code).toBe(0);
    expect([(await runOf(firstRun)).lastLog, (await runOf(secondRun)).lastLog]).toEqual(['on one', 'on two']);
    const listedRuns = await run('runs');
    expect(listedRuns.stdout).toBe(`  ${first.key} (running) First job\n* ${second.key} (running) Second job\n`);

    // Claiming my own open run again carries on with it instead of the 409.
    const again = await run('claim', first.key, '--goal', 'other goal');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Resumed ${first.key} (First job); run ${firstRun}\nrunning · (no step)\n`);
    expect(again.stderr).toMatch(new RegExp(`^board-agent: Your run on ${first.key} was already open; carrying on with it \\(its goal stays "one"\\)\\.\n`));

    // Another folder (a new session, a lost state file) finds the open runs on the board.
    const elsewhere = mkdtempSync(join(tmpdir(), 'board-agent-other-'));
    try {
      const fresh = (args: string[]) => cli(args, { BOARD_AGENT_STATE: join(elsewhere, 'state.json') }).done;
      const unnamed = await fresh(['report', '--log', 'who am I?']);
      expect([unnamed.code, unnamed.stderr]).toEqual([2, `board-agent: You hold 2 open runs: ${first.key} (running), ${second.key} (running). Name the one you mean with --task <taskKey>.\n`]);
      const named = await fresh(['report', '--task', second.key, '--log', 'back on two']);
      expect(named).toMatchObject({ code: 0, stdout: 'running · (no step)\n' });
      expect((await runOf(secondRun)).lastLog).toBe('back on two');
      const other = await createAgent(owner.client, projectId, 'Other');
      const stranger = await cli(['claim', first.key, '--goal', 'x'], { BOARD_TOKEN: other.token, BOARD_AGENT_STATE: join(elsewhere, 'other.json') }).done;
      expect([stranger.code, stranger.stderr]).toEqual([1, 'board-agent: Another run is already open on this task.\n']);
      expect((await fresh(['done', '--task', first.key])).code).toBe(0);
      const third = join(elsewhere, 'third.json');
      const alone = await cli(['done'], { BOARD_AGENT_STATE: third }).done;
      expect(alone).toEqual({
        code: 0,
        stdout: 'done · (no step)\n',
        stderr: `board-agent: Carrying on with your open run on ${second.key} (found on the board; ${third} did not hold it).\n`,
      });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    expect([(await runOf(firstRun)).status, (await runOf(secondRun)).status]).toEqual(['done', 'done']);
    // This folder's file still holds both; the next claim lets go of runs that closed meanwhile.
    expect(Object.keys(saved().runs)).toHaveLength(2);
  });

  it('hands over, saying who has the task', async () => {
    expect((await run('claim', (await task('Review me')).key, '--goal', 'Reviewed')).code).toBe(0);
    const { runId } = state();
    expect(Object.keys(saved().runs)).toHaveLength(1);
    expect(await run('handover', '--to', 'Pat')).toEqual({ code: 0, stdout: 'handed_over · Handed over to Pat\n', stderr: '' });
    expect((await runOf(runId)).status).toBe('handed_over');
    expect(existsSync(join(folder, '.board-agent.json'))).toBe(false);
  });

  it('exits 5 on a stop and on a take-over, and 4 on a lost lease', async () => {
    expect((await run('claim', (await task('Stop me')).key, '--goal', 'x')).code).toBe(0);
    let { runId } = state();
    await control(runId, 'stop');
    const stopped = await run('report', '--step', 'still going');
    expect([stopped.code, stopped.stdout]).toEqual([5, 'running · still going\ncontrol: stop\n']);
    expect(stopped.stderr).toMatch(/A person asked this run to stop/);
    expect(await run('report', '--status', 'stopped')).toMatchObject({ code: 0, stdout: 'stopped · still going\n' });

    expect((await run('claim', (await task('Take me')).key, '--goal', 'x')).code).toBe(0);
    ({ runId } = state());
    await control(runId, 'take_over');
    const taken = await run('beat');
    expect([taken.code, taken.stderr]).toEqual([5, 'board-agent: A person took the task over, so this run is closed. Stop working on it.\n']);
    expect(existsSync(join(folder, '.board-agent.json'))).toBe(false);

    expect((await run('claim', (await task('Lose me')).key, '--goal', 'x')).code).toBe(0);
    ({ runId } = state());
    // A forced clock: thirty minutes of silence cannot pass in a test.
    await t.sql.query(`UPDATE runs SET updated_at = now() - interval '31 minutes' WHERE id = $1`, [runId]);
    await expectStatus(owner.client.get(`/projects/${projectId}/board`), 200); // the board read sweeps the lease
    const lost = await run('report', '--log', 'back again');
    expect([lost.code, lost.stderr]).toEqual([4, 'board-agent: The run’s lease ran out (no report in time), so the run is closed. Claim the task again to go on.\n']);
  });

  it('exits 3 for a bad token, 7 without a service, 2 for wrong use and 1 for a refusal', async () => {
    const bad = await cli(['rules'], { BOARD_TOKEN: `svc_${'x'.repeat(43)}` }).done;
    expect([bad.code, bad.stderr]).toEqual([3, 'board-agent: That token is not valid any more. Check BOARD_TOKEN.\n']);

    const port = await new Promise<number>((ok) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => ok(port));
      });
    });
    const down = await cli(['rules'], { BOARD_URL: `http://127.0.0.1:${port}` }).done;
    expect(down.code).toBe(7);
    expect(down.stderr).toMatch(/^board-agent: Could not reach the board service: /);

    expect((await cli(['rules'], { BOARD_TOKEN: '' }).done).stderr).toBe("board-agent: Set BOARD_TOKEN (the board's address, and the agent token made in the project's People settings).\n");
    expect((await run('claim', 'ACL-1')).code).toBe(2);
    expect((await run('report', '--nope')).code).toBe(2);
    expect((await run('launch')).code).toBe(2);

    const missing = await run('claim', 'ACL-999', '--goal', 'x');
    expect([missing.code, missing.stderr]).toEqual([1, 'board-agent: No task ACL-999 on the board of Agent CLI.\n']);
    const unknown = await run('report', '--task', 'ACL-999', '--log', 'x');
    expect([unknown.code, unknown.stderr]).toEqual([1, 'board-agent: No task ACL-999 on the board of Agent CLI.\n']);
  });
});
