/**
 * The agent protocol as an MCP server on stdin/stdout (`board-agent mcp`), for MCP-capable agents.
 * Tools: list_my_tasks, read_task, claim_task, next_task, report, heartbeat, ask_person (free, or
 * with options), add_links, report_usage, read_usage, comment, hand_over, finish; resource
 * `board://rules` (the project's rules for agents). The same server is served over HTTP at
 * `/api/mcp` (apps/api/src/mcp), so the tools live here once for both transports. An agent may hold several runs
 * (one per task): run tools act on the current one (the last claimed) or the one `task` names, and
 * a new session finds the agent's open runs on the board and carries on with them. Answers name
 * properties, options and people (ids beside), never raw dumps (readable.ts). While a run is open
 * the server beats on a timer (BOARD_BEAT_MS, default 30 s), also while a long tool call (ask_person) runs. It
 * honours a person's control words: after a stop or a take-over (or a lost lease) run tools answer
 * so as errors and the beating stops; a stop still lets `finish` close the run as stopped; a pause
 * is said in every answer until resumed.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { ReportBody } from '@board/client';
import { AgentWork, configFromEnv, plainHttpWarning, RunEnded } from './agent-work';
import { heldFrom, resumedOnClaim, secondClaimWarning } from './held-runs';
import { McpAgent } from './mcp-session';
import { briefRun, linkLine, money, readableTask } from './readable';

const taskRef = z.string().min(1).describe('The task key (like ABC-12) or id.');
/** The optional `task` of a run tool: which held run it acts on. */
const runTask = taskRef.optional().describe('The task whose run this is about, when I hold several runs; the current run (the last claimed) by default.');
const brief = <A extends { run: Parameters<typeof briefRun>[0] }>(answer: A) => ({ ...answer, run: briefRun(answer.run) });

export const NOTHING_LEFT = 'Nothing left in the queue for you.';

export function buildMcpServer(work: AgentWork, beatMs: number): { server: McpServer; agent: McpAgent } {
  const agent = new McpAgent(work, beatMs);
  const client = work.client;
  const server = new McpServer({ name: 'task-board', version: '1.0.0' });

  server.registerResource(
    'rules',
    'board://rules',
    { title: 'Project rules for agents', description: 'What the project asks of every agent working on it. Read before claiming a task.', mimeType: 'text/markdown' },
    async (uri) => {
      const { project } = await work.me();
      const rules = await client.rules(project.id);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: rules.text }] };
    },
  );

  server.registerTool(
    'list_my_tasks',
    {
      title: 'List my tasks',
      description:
        'Tasks waiting for me in my project: my open runs (those waiting for a person’s answer flagged), and live tasks a person property assigns to me that are not done and have no open run.',
    },
    agent.bare(async () => {
      const me = await work.me();
      const board = await client.board(me.project.id);
      const byId = new Map(board.tasks.map((t) => [t.id, t]));
      const mine = board.runs.filter((r) => r.agent?.id === me.agent.id);
      agent.adopt(heldFrom(board, me.agent.id), new Map(mine.map((r) => [r.id, r.control])));
      const running = new Set(board.runs.map((r) => r.taskId));
      const people = board.properties.filter((p) => p.type === 'person').map((p) => p.id);
      const done = board.project.doneWhen;
      const over = (values: Record<string, unknown>) => !!done && done.optionIds.includes(values[done.propertyId] as string);
      return {
        myRuns: mine.map((r) => ({ taskKey: byId.get(r.taskId)?.key ?? null, taskId: r.taskId, title: byId.get(r.taskId)?.title ?? null, runId: r.id, status: r.status, step: r.step, waitingForAPerson: r.status === 'waiting', control: r.control })),
        assignedToMe: board.tasks
          .filter((t) => people.some((p) => t.values[p] === me.agent.id) && !over(t.values) && !running.has(t.id))
          .map((t) => ({ key: t.key, id: t.id, title: t.title })),
      };
    }),
  );

  server.registerTool(
    'read_task',
    { title: 'Read a task', description: 'A task in full: description, values, checklist, comments, links, the open run and recent activity.', inputSchema: { task: taskRef } },
    agent.tool(async ({ task }: { task: string }) => {
      const { project } = await work.me();
      const [read, board] = await Promise.all([work.resolveTask(task).then((found) => client.task(found.id)), client.board(project.id)]);
      return readableTask(read, board);
    }),
  );

  server.registerTool(
    'claim_task',
    {
      title: 'Claim a task',
      description:
        'Opens a run on the task: my work on it, shown on its card. It becomes the current run; the server keeps it beating. ' +
        'When my run on it is already open (an earlier session), carries on with that one. Other runs I hold stay open (the answer warns); name their task to act on them.',
      inputSchema: { task: taskRef, goal: z.string().describe('What the whole run is for, one line.'), step: z.string().optional().describe('What I do first.'), plan: z.array(z.string()).optional().describe('The whole plan, one step each.') },
    },
    agent.tool(async ({ task, goal, step, plan }: { task: string; goal: string; step?: string; plan?: string[] }) => {
      const { task: found, run, resumed } = await work.claimOrResume(task, { goal, ...(step !== undefined && { step }), ...(plan !== undefined && { steps: plan }) });
      const others = (await work.openRuns()).filter((held) => held.taskId !== found.id);
      agent.adopt(others);
      agent.start({ runId: run.id, taskId: found.id, taskKey: found.key }, run.control);
      const warnings = [...(resumed ? [resumedOnClaim(found.key, run.goal)] : []), ...(others.length ? [secondClaimWarning(found.key, others, { option: 'the task argument' })] : [])];
      return { task: found, run: briefRun(run), ...(warnings.length && { warning: warnings.join(' ') }) };
    }),
  );

  server.registerTool(
    'next_task',
    {
      title: 'Take the next task',
      description:
        'Claims the next task of the project’s work queue for me (live, not done, no open run, not blocked, assigned to me or to nobody; a view’s filters and order with view) and answers it in full with the run. ' +
        'It becomes the current run. When nothing is left, says so and claims nothing.',
      inputSchema: {
        view: z.string().optional().describe('A view id: take tasks in its order and through its filters.'),
        goal: z.string().optional().describe('What the whole run is for, one line.'),
        step: z.string().optional().describe('What I do first.'),
        plan: z.array(z.string()).optional().describe('The whole plan, one step each.'),
      },
    },
    agent.tool(async ({ view, goal, step, plan }: { view?: string; goal?: string; step?: string; plan?: string[] }) => {
      const taken = await work.next({ ...(view !== undefined && { viewId: view }), ...(goal !== undefined && { goal }), ...(step !== undefined && { step }), ...(plan !== undefined && { steps: plan }) });
      if (!taken) return { task: null, run: null, message: NOTHING_LEFT };
      const { task, run } = taken;
      const others = (await work.openRuns()).filter((held) => held.taskId !== task.id);
      agent.adopt(others);
      agent.start({ runId: run.id, taskId: task.id, taskKey: task.key }, run.control);
      const board = await client.board((await work.me()).project.id);
      // The run is answered beside the task, in brief; the task's own copy would say it twice.
      const { run: _sameRun, ...read } = readableTask(task, board);
      return { task: read, run: briefRun(run), ...(others.length && { warning: secondClaimWarning(task.key, others, { option: 'the task argument' }) }) };
    }),
  );

  server.registerTool(
    'report',
    {
      title: 'Report progress',
      description: 'Reports on the current run: the step now, the plan, which step is active, a log line, a status. The answer carries a person’s control word (pause, resume, stop).',
      inputSchema: {
        step: z.string().optional(),
        plan: z.array(z.string()).optional(),
        stepIndex: z.number().int().min(0).optional().describe('Steps before it are done, it is active.'),
        log: z.string().optional(),
        status: z.enum(['running', 'paused', 'waiting', 'failed']).optional(),
        reportFor: z.number().optional().describe('Minutes until my next report (at most 60).'),
        task: runTask,
      },
    },
    agent.tool(async ({ plan, task, ...rest }: { step?: string; plan?: string[]; stepIndex?: number; log?: string; status?: 'running' | 'paused' | 'waiting' | 'failed'; reportFor?: number; task?: string }) => {
      const body: ReportBody = { ...rest, ...(plan !== undefined && { steps: plan }) };
      if (!Object.keys(body).length) throw new Error('Send at least one of step, plan, stepIndex, log, status, reportFor.');
      return brief(await agent.report(body, task));
    }),
  );

  server.registerTool(
    'heartbeat',
    { title: 'Heartbeat', description: 'Says the current run is alive (the server also beats on its own) and answers the control word a person set, if any.', inputSchema: { task: runTask } },
    agent.tool(async ({ task }: { task?: string }) => ({ control: await agent.beat(task) })),
  );

  server.registerTool(
    'ask_person',
    {
      title: 'Ask a person and wait',
      description:
        'Asks a person on the run (the card shows the question; the run waits) and waits for the answer: with options, the person picks one (several with multiple) and I get the choices; without, a free text. ' +
        'A comment on the task also answers. The run goes back to running. ' +
        'A person may take long: send a progress token (the server reports progress on every heartbeat, so a client that resets its timeout on progress keeps waiting), or give timeoutSeconds.',
      inputSchema: {
        question: z.string().min(1).describe('At most 500 characters.'),
        options: z.array(z.string()).optional().describe('2 to 10 different choices, each at most 100 characters; omit for a free answer.'),
        multiple: z.boolean().optional().describe('The person may pick several options.'),
        timeoutSeconds: z.number().positive().optional().describe('Give up after this long (the run’s log then says nobody answered).'),
        task: runTask,
      },
    },
    agent.tool(async ({ question, options, multiple, timeoutSeconds, task }: { question: string; options?: string[]; multiple?: boolean; timeoutSeconds?: number; task?: string }, extra) => {
      const current = await agent.mustRun(task);
      const progressToken = extra._meta?.progressToken;
      // Progress on every beat keeps a client that resets its request timeout on progress waiting.
      const onBeat =
        progressToken === undefined
          ? undefined
          : (beats: number) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: beats, message: 'Waiting for a person to answer.' } }).catch(() => undefined);
      try {
        const asked = { text: question, ...(options?.length && { options, multiple: !!multiple }) };
        const answer = await agent.asking(current, () => work.ask(current.runId, current.taskId, asked, { timeoutMs: timeoutSeconds ? timeoutSeconds * 1000 : undefined, signal: extra.signal, onBeat }));
        agent.answered(current);
        return { answer: answer.text, ...(answer.choices && { choices: answer.choices }), from: answer.by, ...(answer.via === 'comment' && { inComment: true, commentId: answer.commentId }) };
      } catch (error) {
        if (error instanceof RunEnded) agent.end(current, error);
        throw error;
      }
    }),
  );

  server.registerTool(
    'add_links',
    {
      title: 'Add links',
      description: 'Adds links to what the current run produced (a pull request, a branch, a preview…), shown on its card and in the task’s history. A link with an address already kept replaces it. At most 20 per run.',
      inputSchema: {
        links: z
          .array(
            z.object({
              url: z.string().describe('An http or https address.'),
              title: z.string().optional(),
              kind: z.enum(['pr', 'branch', 'commit', 'preview', 'session', 'doc', 'other']).optional().describe('other by default.'),
            }),
          )
          .min(1),
        task: runTask,
      },
    },
    agent.tool(async ({ links, task }: { links: { url: string; title?: string; kind?: 'pr' | 'branch' | 'commit' | 'preview' | 'session' | 'doc' | 'other' }[]; task?: string }) => {
      const answer = await agent.report({ links }, task);
      return { links: answer.run.links.map(linkLine), control: answer.control };
    }),
  );

  server.registerTool(
    'report_usage',
    {
      title: 'Report usage',
      description: 'Reports the current run’s tokens and cost: its totals so far (not the increase since the last report), so a retried report counts once. Cost in millionths of the team’s currency.',
      inputSchema: {
        inputTokens: z.number().int().min(0).optional(),
        outputTokens: z.number().int().min(0).optional(),
        costMicros: z.number().int().min(0).optional(),
        model: z.string().optional(),
        task: runTask,
      },
    },
    agent.tool(async ({ task, ...usage }: { inputTokens?: number; outputTokens?: number; costMicros?: number; model?: string; task?: string }) => {
      if (!Object.keys(usage).length) throw new Error('Send at least one of inputTokens, outputTokens, costMicros, model.');
      const answer = await agent.report({ usage }, task);
      return { usage: answer.run.usage, control: answer.control };
    }),
  );

  server.registerTool(
    'read_usage',
    {
      title: 'Read the project’s usage',
      description: 'Tokens and cost of the project’s agents per agent, highest cost first, over UTC days (the last 30 by default). Cost in the team’s currency.',
      inputSchema: { from: z.string().optional().describe('YYYY-MM-DD'), to: z.string().optional().describe('YYYY-MM-DD') },
    },
    agent.tool(async ({ from, to }: { from?: string; to?: string }) => {
      const { project } = await work.me();
      const read = await client.usage(project.id, { ...(from !== undefined && { from }), ...(to !== undefined && { to }) });
      return {
        from: read.from,
        to: read.to,
        total: { ...read.total, cost: money(read.total.costMicros) },
        agents: read.agents.map((a) => ({ agent: a.agent.name, runs: a.runs, inputTokens: a.inputTokens, outputTokens: a.outputTokens, costMicros: a.costMicros, cost: money(a.costMicros) })),
      };
    }),
  );

  server.registerTool(
    'comment',
    { title: 'Comment', description: 'Comments on a task (the current run’s task when none is named).', inputSchema: { body: z.string().min(1), task: taskRef.optional() } },
    agent.tool(async ({ body, task }: { body: string; task?: string }) => {
      const taskId = task ? (await work.resolveTask(task)).id : (await agent.mustRun()).taskId;
      const comment = await client.comment(taskId, body);
      return { comment: { id: comment.id, taskId: comment.taskId, by: comment.author?.name ?? null, at: comment.createdAt, body: comment.body } };
    }),
  );

  server.registerTool(
    'hand_over',
    { title: 'Hand over', description: 'Hands the task to somebody else: the run reads handed over (Waiting for review) and says who has it. Ends my work on it.', inputSchema: { to: z.string().min(1).describe('Who has the task now.'), log: z.string().optional(), task: runTask } },
    agent.tool(async ({ to, log, task }: { to: string; log?: string; task?: string }) =>
      brief(await agent.report({ status: 'handed_over', step: `Handed over to ${to}`.slice(0, 200), ...(log !== undefined && { log }) }, task)),
    ),
  );

  server.registerTool(
    'finish',
    {
      title: 'Finish the run',
      description: 'Closes the current run: done (default), failed, or stopped (after a person asked to stop).',
      inputSchema: { status: z.enum(['done', 'failed', 'stopped']).optional(), log: z.string().optional(), task: runTask },
    },
    agent.tool(async ({ status, log, task }: { status?: 'done' | 'failed' | 'stopped'; log?: string; task?: string }) =>
      brief(await agent.report({ status: status ?? 'done', ...(log !== undefined && { log }) }, task)),
    ),
  );

  return { server, agent };
}

/** Serves on stdin/stdout until the client goes away; answers the exit code. */
export async function serveMcp(env: NodeJS.ProcessEnv): Promise<number> {
  let work: AgentWork;
  try {
    const config = configFromEnv(env);
    // stderr: stdout is the MCP channel.
    const warning = plainHttpWarning(config.url);
    if (warning) process.stderr.write(`board-agent mcp: ${warning}\n`);
    work = AgentWork.fromConfig(config, Number(env.BOARD_BEAT_MS) || undefined);
  } catch (error) {
    process.stderr.write(`board-agent mcp: ${(error as Error).message}\n`);
    return 2;
  }
  const { server, agent } = buildMcpServer(work, Number(env.BOARD_BEAT_MS) || 30_000);
  const transport = new StdioServerTransport();
  const closed = new Promise<number>((resolve) => {
    server.server.onclose = () => resolve(0);
    process.stdin.on('end', () => resolve(0));
  });
  await server.connect(transport);
  const code = await closed;
  agent.stopBeating();
  await server.close().catch(() => undefined);
  return code;
}
