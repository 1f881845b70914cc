/**
 * The agent tools of extensions.md § 1 over both MCP transports, run by the SDK's own clients as an
 * MCP-capable agent would: `board-agent mcp` over stdio, and `/api/mcp` over Streamable HTTP with
 * only the URL and the token. The same scenario on each (next_task, add_links, report_usage,
 * ask_person with options answered by a person on the card while the tool waits, read_usage,
 * nothing left in the queue); then what only HTTP has: 401 and 403 as elsewhere, a tool call on a
 * second instance for a run started on the first (stateless), progress notifications keeping a
 * long ask alive, a client going away ending the wait, 405 for session streams, the body limit.
 */
import { resolve } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectStatus } from '../support/fixtures';
import { createAgent, createProject, Person, registerPerson, startTestApp, TestApp } from '../support/test-app';

const BIN = resolve(__dirname, '../../apps/agent/bin/board-agent.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BEAT_MS = '150';

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
}

describe('agent tools at work over MCP (stdio and HTTP)', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: Person;
  const open: McpClient[] = [];

  const stdio = async (token: string) => {
    const client = new McpClient({ name: 'test-agent', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', BOARD_URL: a.api.replace(/\/api$/, ''), BOARD_TOKEN: token, BOARD_BEAT_MS: BEAT_MS },
      stderr: 'pipe',
    });
    await client.connect(transport);
    open.push(client);
    return client;
  };
  const http = async (token: string, app: TestApp = a) => {
    const client = new McpClient({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.api}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    open.push(client);
    return client;
  };
  const call = async (client: McpClient, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const json = (answer: ToolAnswer) => {
    if (answer.isError) throw new Error(`tool refused: ${answer.content[0].text}`);
    return JSON.parse(answer.content[0].text);
  };
  const refused = (answer: ToolAnswer) => [answer.isError, answer.content[0].text];
  const runOf = async (runId: string) => (await expectStatus(owner.client.get(`/runs/${runId}`), 200)).run;
  const until = async (check: () => Promise<boolean>, what: string, ms = 8000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(40);
    }
  };
  const team = async (name: string, key: string) => {
    const projectId = (await createProject(owner.client, name, key)).id;
    const { token } = await createAgent(owner.client, projectId, 'Claudia');
    const task = async (title: string) => (await expectStatus(owner.client.post(`/projects/${projectId}/tasks`, { title }), 201)).task;
    return { projectId, token, task };
  };

  beforeAll(async () => {
    const env = { SERVICE_MCP_BEAT_MS: BEAT_MS, SERVICE_MCP_CONCURRENT: '3' };
    a = await startTestApp({ env });
    b = await startTestApp({ env, databaseUrl: a.databaseUrl });
    owner = await registerPerson(a, 'Olive');
  });
  afterAll(async () => {
    for (const client of open) await client.close().catch(() => undefined);
    await b?.close();
    await a?.close();
  });

  describe.each([
    ['stdio', 'STD', stdio],
    ['HTTP', 'HTP', (token: string) => http(token)],
  ] as const)('over %s', (name, key, connect) => {
    let mcp: McpClient;
    let project: Awaited<ReturnType<typeof team>>;
    beforeAll(async () => {
      project = await team(`Work ${name}`, key);
      mcp = await connect(project.token);
    });

    it('offers the new tools beside the agent protocol, and the rules', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['add_links', 'ask_person', 'claim_task', 'comment', 'finish', 'hand_over', 'heartbeat', 'list_my_tasks', 'next_task', 'read_task', 'read_usage', 'report', 'report_usage']);
      expect(Object.keys(tools.find((tool) => tool.name === 'ask_person')?.inputSchema.properties ?? {}).sort()).toEqual(['multiple', 'options', 'question', 'task', 'timeoutSeconds']);
      await expectStatus(owner.client.put(`/projects/${project.projectId}/rules`, { text: `# ${name}\nRun the tests.` }), 200);
      const rules = await mcp.readResource({ uri: 'board://rules' });
      expect(rules.contents).toEqual([{ uri: 'board://rules', mimeType: 'text/markdown', text: `# ${name}\nRun the tests.` }]);
    });

    it('takes the next task, links and reports usage, asks with options answered on the card, reads usage, and says when nothing is left', async () => {
      const alpha = await project.task('Alpha');
      const beta = await project.task('Beta');
      const took = json(await call(mcp, 'next_task', { goal: 'Clear the queue', plan: ['read', 'fix'] }));
      expect(took.task).toMatchObject({ key: alpha.key, id: alpha.id, title: 'Alpha', comments: [] });
      expect(took.run).toMatchObject({ status: 'running', goal: 'Clear the queue', step: 'read', plan: ['[>] read', '[ ] fix'] });
      const runId: string = took.run.id;

      const linked = json(await call(mcp, 'add_links', { links: [{ url: 'https://git.example.com/pr/1', title: 'Fix', kind: 'pr' }, { url: 'https://preview.example.com' }] }));
      expect(linked).toEqual({ links: ['pr: Fix <https://git.example.com/pr/1>', 'other: <https://preview.example.com>'], control: null });
      expect(refused(await call(mcp, 'add_links', { links: [{ url: 'ftp://files.example.com' }] }))).toEqual([true, 'A link is an http or https address of at most 2000 characters.']);

      expect(json(await call(mcp, 'report_usage', { inputTokens: 1000, outputTokens: 200, costMicros: 30000, model: 'm-1' }))).toEqual({
        usage: { inputTokens: 1000, outputTokens: 200, costMicros: 30000, model: 'm-1' },
        control: null,
      });
      expect(refused(await call(mcp, 'report_usage', { inputTokens: 10 }))).toEqual([true, "Usage only grows: send the run's totals so far."]);

      const asking = call(mcp, 'ask_person', { question: 'Which branch?', options: ['main', 'develop'] });
      await until(async () => (await runOf(runId)).status === 'waiting', 'the run to wait');
      expect((await runOf(runId)).question).toMatchObject({ text: 'Which branch?', options: ['main', 'develop'], multiple: false, answer: null });
      await expectStatus(owner.client.post(`/runs/${runId}/answer`, { answer: ['develop'] }), 200);
      expect(json(await asking)).toEqual({ answer: 'develop', choices: ['develop'], from: 'Olive' });
      expect(await runOf(runId)).toMatchObject({ status: 'running', control: null });

      const usage = json(await call(mcp, 'read_usage'));
      expect(usage).toMatchObject({
        total: { inputTokens: 1000, outputTokens: 200, costMicros: 30000, runs: 1, cost: '0.0300' },
        agents: [{ agent: 'Claudia', runs: 1, inputTokens: 1000, outputTokens: 200, costMicros: 30000, cost: '0.0300' }],
      });
      expect(usage.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(refused(await call(mcp, 'read_usage', { from: 'yesterday' }))[0]).toBe(true);

      const second = json(await call(mcp, 'next_task', {}));
      expect(second.task).toMatchObject({ key: beta.key, title: 'Beta' });
      expect(second.warning).toMatch(/You now hold another open run besides/);
      expect(json(await call(mcp, 'next_task', {}))).toEqual({ task: null, run: null, message: 'Nothing left in the queue for you.' });
      expect(json(await call(mcp, 'finish', { task: alpha.key })).run.status).toBe('done');
      expect(json(await call(mcp, 'finish', { task: beta.key })).run.status).toBe('done');
    });
  });

  describe('over HTTP only', () => {
    let project: Awaited<ReturnType<typeof team>>;
    beforeAll(async () => {
      project = await team('HTTP only', 'HTO');
    });
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${a.api}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });

    it('answers 401 without a credential and 403 to a person, as other agent routes do', async () => {
      const none = await post({}, INIT);
      expect([none.status, await none.json()]).toEqual([401, { error: 'Sign in first, or send an agent token.' }]);
      const person = await post({ cookie: `service_session=${owner.client.cookie}` }, INIT);
      expect([person.status, await person.json()]).toEqual([403, { error: 'Only an agent can do this.' }]);
      const bad = await post({ authorization: `Bearer svc_${'x'.repeat(43)}` }, INIT);
      expect(bad.status).toBe(401);
    });

    it('speaks protocol 2025-06-18, keeps no session (405 for a session stream), and refuses a body past its limit', async () => {
      const init = await post({ authorization: `Bearer ${project.token}` }, INIT);
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect(await init.text()).toContain('"protocolVersion":"2025-06-18"');
      const stream = await fetch(`${a.api}/mcp`, { headers: { authorization: `Bearer ${project.token}`, accept: 'text/event-stream' } });
      expect(stream.status).toBe(405);
      const huge = await post({ authorization: `Bearer ${project.token}` }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { pad: 'x'.repeat(300 * 1024) } }));
      expect(huge.status).toBe(413);
    });

    it('lets one agent hold three requests at once on an instance; a fourth is 429 with Retry-After', async () => {
      const asks = await Promise.all(['One', 'Two', 'Three'].map((title) => project.task(`Busy ${title}`)));
      const clients = await Promise.all(asks.map(() => http(project.token)));
      const runIds: string[] = [];
      for (const [i, asked] of asks.entries()) runIds.push(json(await call(clients[i], 'claim_task', { task: asked.key, goal: 'x' })).run.id);
      const waits = asks.map((asked, i) => call(clients[i], 'ask_person', { question: `About ${asked.key}?`, task: asked.key }));
      await until(async () => (await Promise.all(runIds.map(runOf))).every((run) => run.status === 'waiting'), 'three runs to wait');
      const fourth = await post({ authorization: `Bearer ${project.token}` }, INIT);
      expect([fourth.status, fourth.headers.get('retry-after'), await fourth.json()]).toEqual([429, '1', { error: 'Too many requests at once. Wait for the others to finish.' }]);
      // Another instance has slots of its own.
      const elsewhere = await fetch(`${b.api}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${project.token}` }, body: INIT });
      expect(elsewhere.status).toBe(200);
      await elsewhere.text();
      for (const runId of runIds) await expectStatus(owner.client.post(`/runs/${runId}/answer`, { answer: 'Fine.' }), 200);
      expect((await Promise.all(waits)).map((answer) => json(answer).answer)).toEqual(['Fine.', 'Fine.', 'Fine.']);
      for (const [i, asked] of asks.entries()) expect(json(await call(clients[i], 'finish', { task: asked.key })).run.status).toBe('done');
      expect((await post({ authorization: `Bearer ${project.token}` }, INIT)).status).toBe(200);
    });

    it('carries on a run started on one instance with a tool call on another', async () => {
      const started = await project.task('Across instances');
      const onA = await http(project.token, a);
      const runId: string = json(await call(onA, 'claim_task', { task: started.key, goal: 'Across' })).run.id;
      const onB = await http(project.token, b);
      expect(json(await call(onB, 'report_usage', { outputTokens: 5 })).usage).toMatchObject({ outputTokens: 5 });
      expect(json(await call(onB, 'add_links', { links: [{ url: 'https://b.example.com', kind: 'doc' }] })).links).toEqual(['doc: <https://b.example.com>']);
      expect(json(await call(onB, 'finish', { log: 'finished on B' })).run).toMatchObject({ id: runId, status: 'done', lastLog: 'finished on B' });
    });

    it('keeps a long ask alive with progress notifications, and ends the wait when the client goes away', async () => {
      const slow = await project.task('Slow answer');
      const mcp = await http(project.token);
      const runId: string = json(await call(mcp, 'claim_task', { task: slow.key, goal: 'x' })).run.id;
      const progress: unknown[] = [];
      const waiting = mcp.callTool({ name: 'ask_person', arguments: { question: 'Which day?' } }, undefined, { timeout: 500, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(p) });
      await until(async () => (await runOf(runId)).status === 'waiting', 'the run to wait');
      await sleep(1200); // more than twice the client's timeout
      await expectStatus(owner.client.post(`/runs/${runId}/answer`, { answer: 'Tuesday.' }), 200);
      expect(json((await waiting) as ToolAnswer)).toEqual({ answer: 'Tuesday.', from: 'Olive' });
      expect(progress.length).toBeGreaterThan(3);
      expect(progress[0]).toEqual({ progress: 1, message: 'Waiting for a person to answer.' });

      // A client that goes away mid-wait: the server stops beating the run and frees the slot.
      const leaving = await http(project.token);
      const gone = call(leaving, 'ask_person', { question: 'Anyone?' }).catch(() => null);
      await until(async () => (await runOf(runId)).question?.text === 'Anyone?', 'the second question');
      await leaving.close();
      await gone;
      await sleep(400);
      const after = (await runOf(runId)).beatAt;
      await sleep(600);
      expect((await runOf(runId)).beatAt).toBe(after);
      // Its slots are all free again (three at once per agent on an instance).
      const three = await Promise.all([1, 2, 3].map(() => http(project.token)));
      const answers = await Promise.all(three.map((client) => call(client, 'heartbeat')));
      expect(answers.map((answer) => answer.isError ?? false)).toEqual([false, false, false]);
      expect(json(await call(mcp, 'finish')).run.status).toBe('done');
    });
  });
});
