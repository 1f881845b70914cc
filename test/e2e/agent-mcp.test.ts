/**
 * The MCP server (`board-agent mcp`) end to end: the SDK's own client starts it over stdio as an
 * MCP-capable agent would, against a real instance. Tools and the rules resource; the heartbeat the
 * server keeps on its timer; ask and wait for a person's answer; pause, stop (the beating stops and
 * run tools answer so) and take-over. Several runs in one session (a second claim warns, `task` picks),
 * a new session resuming the agent's open runs, read_task by names, and an ask that timed out.
 */
import { resolve } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createProperty, expectStatus } from '../support/fixtures';
import { createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const BIN = resolve(__dirname, '../../apps/agent/bin/board-agent.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

describe('board-agent MCP server', () => {
  let t: TestApp;
  let owner: Person;
  let projectId: string;
  let agentId: string;
  let token: string;
  let mcp: McpClient;

  const connect = async (extra: Record<string, string> = {}) => {
    const client = new McpClient({ name: 'test-agent', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', BOARD_URL: t.api.replace(/\/api$/, ''), BOARD_TOKEN: token, BOARD_BEAT_MS: '150', ...extra },
      stderr: 'pipe',
    });
    await client.connect(transport);
    return client;
  };
  const call = async (name: string, args: Record<string, unknown> = {}, client = mcp) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const json = (answer: ToolAnswer) => {
    if (answer.isError) throw new Error(`tool refused: ${answer.content[0].text}`);
    return JSON.parse(answer.content[0].text);
  };
  const task = async (title: string, values?: Record<string, unknown>) => (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title, ...(values && { values }) }), 201)).task;
  const runOf = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;
  const control = (runId: string, word: string) => expectStatus(owner.client.post(`/runs/${runId}/control`, { control: word }), 200);
  const until = async (check: () => Promise<boolean>, what: string, ms = 8000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(40);
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerPerson(t, 'Olive');
    projectId = (await createProject(owner.client, 'Agent MCP', 'MCP')).id;
    const made = await createAgent(owner.client, projectId, 'Claudia');
    token = made.token;
    agentId = made.agent.id;
    mcp = await connect();
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('offers the agent protocol as tools and the rules as a resource', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add_links', 'ask_person', 'claim_task', 'comment', 'finish', 'hand_over', 'heartbeat', 'list_my_tasks', 'next_task', 'read_task', 'read_usage', 'report', 'report_usage']);
    expect(tools.find((tool) => tool.name === 'claim_task')?.inputSchema.required).toEqual(['task', 'goal']);
    await expectStatus(owner.client.put(`/projects/${projectId}/rules`, { text: '# Rules\nRun the tests.' }), 200);
    const { resources } = await mcp.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['board://rules']);
    const rules = await mcp.readResource({ uri: 'board://rules' });
    expect(rules.contents).toEqual([{ uri: 'board://rules', mimeType: 'text/markdown', text: '# Rules\nRun the tests.' }]);
  });

  it('lists my tasks, claims, beats on its own, reports, asks and waits, and finishes', async () => {
    const assignee = await createProperty(owner.client, projectId, 'Assignee', 'person');
    const mine = await task('Fix the login', { [assignee.id]: agentId });
    await task('Not mine');
    expect(json(await call('list_my_tasks'))).toEqual({ myRuns: [], assignedToMe: [{ key: mine.key, id: mine.id, title: 'Fix the login' }] });

    const claimed = json(await call('claim_task', { task: mine.key, goal: 'Login fixed', plan: ['find', 'fix'] }));
    const runId: string = claimed.run.id;
    expect(claimed.run).toMatchObject({ status: 'running', step: 'find', goal: 'Login fixed' });
    expect(json(await call('list_my_tasks'))).toEqual({
      myRuns: [{ taskKey: mine.key, taskId: mine.id, title: 'Fix the login', runId, status: 'running', step: 'find', waitingForAPerson: false, control: null }],
      assignedToMe: [],
    });

    // The server beats on its timer while nothing is called.
    const firstBeat = (await runOf(runId)).beatAt;
    await until(async () => (await runOf(runId)).beatAt > firstBeat, 'a beat');

    const reported = json(await call('report', { stepIndex: 1, step: 'fixing', log: 'found it' }));
    expect(reported).toMatchObject({ run: { stepsDone: 1, step: 'fixing', lastLog: 'found it' }, control: null });
    expect(json(await call('read_task', { task: mine.id })).run).toMatchObject({ id: runId, step: 'fixing' });

    const asking = call('ask_person', { question: 'May I change the session length?' });
    await until(async () => (await runOf(runId)).status === 'waiting', 'the run to wait');
    const waitingSince = (await runOf(runId)).beatAt;
    await until(async () => (await runOf(runId)).beatAt > waitingSince, 'a beat while the tool call runs');
    await expectStatus(owner.client.post(`/tasks/${mine.id}/comments`, { body: 'Yes, to 7 days.' }), 201);
    const answer = json(await asking);
    expect([answer.answer, answer.from]).toEqual(['Yes, to 7 days.', 'Olive']);
    expect(await runOf(runId)).toMatchObject({ status: 'running', control: null });

    await control(runId, 'pause');
    const paused = await call('heartbeat');
    expect(JSON.parse(paused.content[0].text)).toEqual({ control: 'pause' });
    expect(paused.content[1].text).toMatch(/asked this run to pause/);
    await control(runId, 'resume');
    expect(json(await call('report', { status: 'running' })).control).toBeNull();

    const note = json(await call('comment', { body: 'Changed to 7 days.' }));
    expect(note.comment).toMatchObject({ taskId: mine.id, by: 'Claudia', body: 'Changed to 7 days.' });
    expect(json(await call('finish', { log: 'shipped' })).run).toMatchObject({ status: 'done', lastLog: 'shipped' });
    const after = await call('report', { step: 'more' });
    expect([after.isError, after.content[0].text]).toEqual([true, 'No current run: claim a task first (claim_task).']);
  });

  it('reads a task with property, option and people names, ids beside, and no colours', async () => {
    const size = await createProperty(owner.client, projectId, 'Size', 'select', ['Small', 'Large']);
    const tags = await createProperty(owner.client, projectId, 'Tags', 'multi_select', ['ui', 'db']);
    const owners = await createProperty(owner.client, projectId, 'Owner', 'person');
    const large = size.options.find((o: { name: string }) => o.name === 'Large')!.id;
    const db = tags.options.find((o: { name: string }) => o.name === 'db')!.id;
    const read = await task('Named values', { [size.id]: large, [tags.id]: [db], [owners.id]: agentId });
    await expectStatus(owner.client.post(`/tasks/${read.id}/comments`, { body: 'Please hurry.' }), 201);
    const answer = await call('read_task', { task: read.key });
    const text = answer.content[0].text;
    expect(text).not.toMatch(/#[0-9a-f]{6}/i);
    expect(text).not.toMatch(/"(color|emoji|position)"/);
    const shown = json(answer);
    expect(shown).toMatchObject({ key: read.key, id: read.id, title: 'Named values', run: null, comments: [{ by: 'Olive', text: 'Please hurry.' }] });
    expect(shown.values).toEqual(
      expect.arrayContaining([
        { property: 'Size', propertyId: size.id, type: 'select', value: 'Large', optionId: large },
        { property: 'Tags', propertyId: tags.id, type: 'multi_select', value: ['db'], optionIds: [db] },
        { property: 'Owner', propertyId: owners.id, type: 'person', value: 'Claudia', memberId: agentId },
      ]),
    );
  });

  it('holds several runs: a second claim warns and keeps both, `task` picks, and a new session resumes them', async () => {
    const first = await task('First run');
    const second = await task('Second run');
    const one = json(await call('claim_task', { task: first.key, goal: 'one', plan: ['a', 'b'] }));
    expect(one.warning).toBeUndefined();
    expect(one.run).toEqual({ id: one.run.id, taskId: first.id, status: 'running', goal: 'one', step: 'a', control: null, stepsDone: 0, stepsTotal: 2, lastLog: 'started: one', plan: ['[>] a', '[ ] b'], log: ['started: one'] });
    const two = json(await call('claim_task', { task: second.key, goal: 'two' }));
    expect(two.warning).toBe(
      `You now hold another open run besides ${second.key}: ${first.key} (running). They stay open and keep their state; run commands act on ${second.key} unless you name another with the task argument.`,
    );
    expect(json(await call('report', { log: 'on two' })).run).toMatchObject({ id: two.run.id, lastLog: 'on two' });
    expect(json(await call('report', { task: first.key, log: 'on one' })).run).toMatchObject({ id: one.run.id, lastLog: 'on one' });

    // The server beats both runs on its timer.
    const [beatOne, beatTwo] = [(await runOf(one.run.id)).beatAt, (await runOf(two.run.id)).beatAt];
    await until(async () => (await runOf(one.run.id)).beatAt > beatOne && (await runOf(two.run.id)).beatAt > beatTwo, 'both runs to beat');

    // A new session (the agent restarted) finds its open runs on the board and carries on.
    const fresh = await connect();
    try {
      const unnamed = await call('report', { log: 'who am I?' }, fresh);
      expect(unnamed).toEqual({
        isError: true,
        content: [{ type: 'text', text: `You hold 2 open runs: ${first.key}, ${second.key}. Name the one you mean with the task argument.` }],
      });
      expect(json(await call('report', { task: second.key, log: 'back on two' }, fresh)).run).toMatchObject({ id: two.run.id, lastLog: 'back on two' });
      // Claiming my own open run again carries on with it rather than answering the 409.
      const again = json(await call('claim_task', { task: first.key, goal: 'other goal' }, fresh));
      expect(again.run.id).toBe(one.run.id);
      expect(again.warning).toMatch(new RegExp(`^Your run on ${first.key} was already open; carrying on with it \\(its goal stays "one"\\)\\. You now hold another open run besides ${first.key}: ${second.key} \\(running\\)\\.`));
      expect(json(await call('finish', {}, fresh)).run).toMatchObject({ id: one.run.id, status: 'done' });
      expect(json(await call('finish', { task: second.key }, fresh)).run).toMatchObject({ id: two.run.id, status: 'done' });
    } finally {
      await fresh.close();
    }

    // One open run and a new session: report works without naming it.
    const third = await task('Third run');
    const runId: string = json(await call('claim_task', { task: third.key, goal: 'three' })).run.id;
    const later = await connect();
    try {
      expect(json(await call('report', { step: 'resumed' }, later)).run).toMatchObject({ id: runId, step: 'resumed' });
      expect(json(await call('finish', {}, later)).run.status).toBe('done');
    } finally {
      await later.close();
    }
  });

  it('says on the run that an ask timed out', async () => {
    const asked = await task('Nobody answers');
    const runId: string = json(await call('claim_task', { task: asked.key, goal: 'x' })).run.id;
    const outcome = await call('ask_person', { question: 'Anyone there?', timeoutSeconds: 1 });
    expect(outcome).toEqual({ isError: true, content: [{ type: 'text', text: 'No answer came within 1 seconds.' }] });
    expect(await runOf(runId)).toMatchObject({ status: 'running', lastLog: 'asked "Anyone there?" — no answer in 1 s' });
    expect(json(await call('finish')).run.status).toBe('done');
  });

  it('keeps a long ask alive past the client’s request timeout by reporting progress on every beat', async () => {
    const asked = await task('Slow answer');
    const runId: string = json(await call('claim_task', { task: asked.key, goal: 'x' })).run.id;
    const progress: unknown[] = [];
    const waiting = mcp.callTool({ name: 'ask_person', arguments: { question: 'Which day?' } }, undefined, {
      timeout: 500,
      resetTimeoutOnProgress: true,
      onprogress: (p) => progress.push(p),
    });
    await until(async () => (await runOf(runId)).status === 'waiting', 'the run to wait');
    await sleep(1200); // more than twice the client's timeout
    await expectStatus(owner.client.post(`/tasks/${asked.id}/comments`, { body: 'Tuesday.' }), 201);
    expect(json((await waiting) as ToolAnswer).answer).toBe('Tuesday.');
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[0]).toEqual({ progress: 1, message: 'Waiting for a person to answer.' });
    expect(json(await call('finish')).run.status).toBe('done');
  });

  it('after a stop answers so, stops beating, and still lets the run finish as stopped', async () => {
    const runId: string = json(await call('claim_task', { task: (await task('Stop me')).key, goal: 'x' })).run.id;
    await control(runId, 'stop');
    const heard = await call('heartbeat');
    expect(heard).toEqual({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^A person asked this run to stop\./) }] });
    const refused = await call('report', { log: 'carrying on' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^A person asked this run to stop\./);
    const beatAt = (await runOf(runId)).beatAt;
    await sleep(600);
    expect((await runOf(runId)).beatAt).toBe(beatAt);
    expect(json(await call('finish', { status: 'stopped' })).run.status).toBe('stopped');
  });

  it('after a take-over answers so on every run tool', async () => {
    const other = await task('Take me');
    const runId: string = json(await call('claim_task', { task: other.key, goal: 'x' })).run.id;
    await control(runId, 'take_over');
    const taken = 'A person took the task over, so this run is closed. Stop working on it.';
    // The server's own beat hears it first; every run tool then answers so.
    await until(async () => (await call('comment', { body: 'still here?' })).isError === true, 'the take-over to be heard');
    expect(await call('report', { step: 'more' })).toEqual({ isError: true, content: [{ type: 'text', text: taken }] });
    expect(await call('finish')).toEqual({ isError: true, content: [{ type: 'text', text: taken }] });
    const read = await call('read_task', { task: other.key });
    expect(read.content[1]).toEqual({ type: 'text', text: taken });
    expect((await runOf(runId)).status).toBe('taken_over');
  });

  it('hands over, and answers a bad token with the service’s sentence', async () => {
    const runId: string = json(await call('claim_task', { task: (await task('Review')).key, goal: 'x' })).run.id;
    expect(json(await call('hand_over', { to: 'Olive' })).run).toMatchObject({ status: 'handed_over', step: 'Handed over to Olive' });
    expect((await runOf(runId)).status).toBe('handed_over');

    const stranger = await connect({ BOARD_TOKEN: `svc_${'x'.repeat(43)}` });
    try {
      expect(await call('list_my_tasks', {}, stranger)).toEqual({ isError: true, content: [{ type: 'text', text: 'That token is not valid any more.' }] });
    } finally {
      await stranger.close();
    }
  });
});
