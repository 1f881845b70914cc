/**
 * `board-agent`: the agent protocol (interface.md › Runs) from a shell. The token comes from
 * BOARD_TOKEN, the address from BOARD_URL, the runs it holds from the state file (state.ts): run
 * commands act on the current run (the last claimed) or the one --task names; a run the file does
 * not know (another folder, a lost file) is found open on the board and carried on with.
 * Exit codes: exit-codes.ts (and README).
 */
import { parseArgs } from 'node:util';
import { BoardApiError, type ReportBody, type Run, type Task } from '@board/client';
import { AgentWork, configFromEnv, NoAnswer, plainHttpWarning, RunEnded, STOP_MESSAGE, UsageError } from './agent-work';
import { EXIT } from './exit-codes';
import { listed, nameOne, noRunOn, resumedOnClaim, secondClaimWarning, type HeldRun } from './held-runs';
import { briefRun, linkLine, money } from './readable';
import { usageTable } from './usage-table';
import { StateFile, type CurrentRun } from './state';

export const USAGE = `Usage: board-agent <command> [options]     (BOARD_URL and BOARD_TOKEN must be set)

  claim <taskKey|id> --goal "…" [--step "…"] [--plan "a;b;c"]   open a run on the task; it becomes the current run
                                         (other runs you hold stay open; your own open run on it is carried on)
  next [--view <viewId>] [--goal "…"] [--step "…"] [--plan "a;b;c"]
                                         claim the next task of the work queue (the view's order and filters with
                                         --view); it becomes the current run. Nothing left: exit 9
  report [--step "…"] [--plan "a;b;c"] [--step-index n] [--log "…"] [--status s] [--report-for minutes]
  beat                                   heartbeat; prints the control word a person set, if any
  ask "<question>" [--option A --option B [--multiple]] [--timeout seconds]
                                         ask on the run (status waiting), wait for a person's answer (on the card,
                                         or a comment) and print it: the chosen options one a line, or the text
  link <url> [--title "…"] [--kind pr|branch|commit|preview|session|doc|other]
                                         add a link to what the run produced (the same url replaces its link)
  usage [--input-tokens n] [--output-tokens n] [--cost-micros n] [--model m]
                                         report the run's usage: its totals so far (cost in millionths)
  usage --report [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                                         print the project's usage per agent (the last 30 days by default)
  done [--log "…"]                       finish the run (status done)
  handover --to "<who>" [--log "…"]      hand the task over (run handed_over, step says who has it)
  rules                                  print the project's rules for agents
  status                                 print the current run
  runs                                   list your open runs (the current one marked *)
  mcp                                    serve the same protocol as MCP tools on stdin/stdout

  --task <taskKey|id> picks which of your runs report, beat, ask, link, usage, done, handover and status act on.
  --json prints answers as JSON. Your runs are kept in ./.board-agent.json (BOARD_AGENT_STATE to move it);
  a run the file does not know is found open on the board.
Exit codes: 0 ok, 1 refused, 2 usage, 3 bad token, 4 run closed or lease lost, 5 stopped or taken over,
            6 pause asked, 7 service unreachable, 8 no answer in time, 9 nothing left in the queue.`;

const CLOSING = new Set(['done', 'failed', 'stopped', 'lost']);

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

const OPTIONS = {
  goal: { type: 'string' },
  step: { type: 'string' },
  plan: { type: 'string' },
  log: { type: 'string' },
  status: { type: 'string' },
  'step-index': { type: 'string' },
  'report-for': { type: 'string' },
  to: { type: 'string' },
  timeout: { type: 'string' },
  task: { type: 'string' },
  view: { type: 'string' },
  option: { type: 'string', multiple: true },
  multiple: { type: 'boolean' },
  title: { type: 'string' },
  kind: { type: 'string' },
  'input-tokens': { type: 'string' },
  'output-tokens': { type: 'string' },
  'cost-micros': { type: 'string' },
  model: { type: 'string' },
  report: { type: 'boolean' },
  from: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function plan(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(';').map((s) => s.trim()).filter(Boolean);
}

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!text.trim() || !Number.isFinite(value)) throw new UsageError(`--${name} takes a number.`);
  return value;
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') }): Promise<number> {
  const state = new StateFile(env);
  let picked: CurrentRun | null = null;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [command, ...rest] = positionals;
    if (values.help || !command || command === 'help') {
      io.out(USAGE);
      return command || values.help ? EXIT.ok : EXIT.usage;
    }
    const config = configFromEnv(env);
    const warning = plainHttpWarning(config.url);
    if (warning) io.err(`board-agent: ${warning}`);
    const work = AgentWork.fromConfig(config, Number(env.BOARD_BEAT_MS) || undefined);
    const show = (run: Run, control: string | null = run.control) => {
      if (values.json) io.out(JSON.stringify({ run: briefRun(run), control }));
      else io.out(`${run.status} · ${run.step || '(no step)'}${control ? `\ncontrol: ${control}` : ''}`);
    };
    const naming = { option: '--task <taskKey>' };
    const keep = async (held: HeldRun, current: boolean): Promise<CurrentRun> => {
      const run = { url: config.url, runId: held.runId, taskId: held.taskId, taskKey: held.taskKey, projectId: (await work.me()).project.id, claimedAt: held.startedAt };
      state.write(run, { current });
      return run;
    };
    /** The run a command acts on: --task's, else the current one, else the only one held, else the agent's open run on the board. */
    const pick = async (): Promise<CurrentRun> => {
      picked = await choose();
      return picked;
    };
    const choose = async (): Promise<CurrentRun> => {
      const { runs } = state.runs(config.url);
      if (values.task !== undefined) {
        const wanted = values.task.trim().toUpperCase();
        const local = runs.find((run) => run.taskKey === wanted || run.taskId.toUpperCase() === wanted);
        if (local) return local;
        const task = await work.resolveTask(values.task);
        const open = (await work.openRuns()).find((run) => run.taskId === task.id);
        if (!open) throw new UsageError(noRunOn(task.key, `board-agent claim ${task.key}`));
        io.err(`board-agent: Carrying on with your open run on ${open.taskKey} (found on the board).`);
        return keep(open, false);
      }
      const current = state.read(config.url);
      if (current) return current;
      if (runs.length > 1) throw new UsageError(nameOne(runs, naming));
      const open = await work.openRuns();
      if (open.length === 1) {
        io.err(`board-agent: Carrying on with your open run on ${open[0].taskKey} (found on the board; ${state.path} did not hold it).`);
        return keep(open[0], true);
      }
      for (const run of open) await keep(run, false);
      if (open.length > 1) throw new UsageError(nameOne(open, naming));
      throw new UsageError(`No current run: claim a task first (board-agent claim <taskKey>). State file: ${state.path}`);
    };
    const current = pick;
    /** What a report or beat answer means for the script: stop (5), pause (6), or go on (0). */
    const controlled = (control: string | null): number => {
      if (control === 'stop') {
        io.err(`board-agent: ${STOP_MESSAGE}`);
        return EXIT.stopped;
      }
      if (control === 'pause') {
        io.err('board-agent: A person asked this run to pause. Report status paused, then beat until the control word is resume.');
        return EXIT.paused;
      }
      return EXIT.ok;
    };
    const report = async (run: CurrentRun, body: ReportBody, print: (run: Run, control: string | null) => void = show) => {
      const answer = await work.onRun(run.runId, () => work.client.report(run.runId, body));
      if (CLOSING.has(answer.run.status) || answer.run.status === 'handed_over') state.drop(run.taskId);
      print(answer.run, answer.control);
      return controlled(answer.control);
    };
    /** After a claim or a queue's claim: the run becomes current, the agent's other open runs are kept and named. */
    const holdClaimed = async (task: Pick<Task, 'id' | 'key' | 'title'>, run: Run, resumed: boolean) => {
      const { project } = await work.me();
      // The agent's other open runs (this file's, and any claimed elsewhere) are kept, not replaced;
      // runs of the file that closed meanwhile (finished from another folder, lost) are let go.
      const others = (await work.openRuns()).filter((held) => held.taskId !== task.id);
      const open = new Set(others.map((other) => other.runId));
      for (const held of state.runs(config.url).runs) if (!open.has(held.runId) && held.taskId !== task.id) state.drop(held.taskId);
      for (const other of others) if (!state.runs(config.url).runs.some((r) => r.runId === other.runId)) await keep(other, false);
      state.write({ url: config.url, runId: run.id, taskId: task.id, taskKey: task.key, projectId: project.id, claimedAt: run.startedAt });
      if (resumed) io.err(`board-agent: ${resumedOnClaim(task.key, run.goal)}`);
      if (others.length) io.err(`board-agent: ${secondClaimWarning(task.key, others, naming)}`);
      if (values.json) io.out(JSON.stringify({ run: briefRun(run), task, ...(resumed && { resumed }), ...(others.length && { others: others.map((o) => ({ taskKey: o.taskKey, runId: o.runId, status: o.status })) }) }));
      else io.out(`${resumed ? 'Resumed' : 'Claimed'} ${task.key} (${task.title}); run ${run.id}\n${run.status} · ${run.step || '(no step)'}`);
    };

    switch (command) {
      case 'claim': {
        if (rest.length !== 1) throw new UsageError('claim takes one task: board-agent claim <taskKey|id> --goal "…"');
        if (values.goal === undefined) throw new UsageError('claim needs --goal "<what the whole run is for>".');
        const { task, run, resumed } = await work.claimOrResume(rest[0], { goal: values.goal, ...(values.step !== undefined && { step: values.step }), ...(values.plan !== undefined && { steps: plan(values.plan) }) });
        await holdClaimed(task, run, resumed);
        return EXIT.ok;
      }
      case 'next': {
        if (rest.length) throw new UsageError('next takes no task: board-agent next [--view <viewId>] [--goal "…"]');
        const taken = await work.next({
          ...(values.view !== undefined && { viewId: values.view }),
          ...(values.goal !== undefined && { goal: values.goal }),
          ...(values.step !== undefined && { step: values.step }),
          ...(values.plan !== undefined && { steps: plan(values.plan) }),
        });
        if (!taken) {
          if (values.json) io.out(JSON.stringify({ run: null, task: null }));
          io.err('board-agent: Nothing left in the queue for you.');
          return EXIT.nothingLeft;
        }
        await holdClaimed({ id: taken.task.id, key: taken.task.key, title: taken.task.title }, taken.run, false);
        return EXIT.ok;
      }
      case 'report': {
        const body: ReportBody = {
          ...(values.step !== undefined && { step: values.step }),
          ...(values.plan !== undefined && { steps: plan(values.plan) }),
          ...(values['step-index'] !== undefined && { stepIndex: number('step-index', values['step-index']) }),
          ...(values.log !== undefined && { log: values.log }),
          ...(values.status !== undefined && { status: values.status as ReportBody['status'] }),
          ...(values['report-for'] !== undefined && { reportFor: number('report-for', values['report-for']) }),
        };
        if (!Object.keys(body).length) throw new UsageError('report needs at least one of --step, --plan, --step-index, --log, --status, --report-for.');
        return await report(await current(), body);
      }
      case 'beat': {
        const run = await current();
        const control = await work.beat(run.runId).catch((error) => {
          if (error instanceof RunEnded && error.kind === 'stop') return 'stop' as const;
          throw error;
        });
        io.out(values.json ? JSON.stringify({ control }) : `control: ${control ?? 'none'}`);
        return controlled(control);
      }
      case 'ask': {
        const question = rest.join(' ').trim();
        if (!question) throw new UsageError('ask needs the question: board-agent ask "<question>" [--option A --option B]');
        if (values.multiple && !values.option?.length) throw new UsageError('--multiple goes with the --option choices.');
        const run = await current();
        const timeout = number('timeout', values.timeout);
        const answer = await work.ask(run.runId, run.taskId, { text: question, ...(values.option?.length && { options: values.option, multiple: !!values.multiple }) }, { timeoutMs: timeout ? timeout * 1000 : undefined });
        if (values.json) io.out(JSON.stringify({ answer }));
        else {
          io.err(`board-agent: ${answer.by ?? 'A person'} answered${answer.via === 'comment' ? ' in a comment' : ''}:`);
          io.out(answer.choices ? answer.choices.join('\n') : answer.text);
        }
        return EXIT.ok;
      }
      case 'link': {
        if (rest.length !== 1) throw new UsageError('link takes one address: board-agent link <url> [--title "…"] [--kind pr]');
        const link = { url: rest[0], ...(values.title !== undefined && { title: values.title }), ...(values.kind !== undefined && { kind: values.kind as never }) };
        return await report(await current(), { links: [link] }, (run, control) => {
          if (values.json) io.out(JSON.stringify({ links: run.links, control }));
          else io.out(`${run.links.length} link${run.links.length === 1 ? '' : 's'} on the run:\n${run.links.map((l) => `  ${linkLine(l)}`).join('\n')}${control ? `\ncontrol: ${control}` : ''}`);
        });
      }
      case 'usage': {
        if (rest.length) throw new UsageError('usage takes options only: board-agent usage --input-tokens n … or usage --report');
        if (values.report) {
          const { project } = await work.me();
          const read = await work.client.usage(project.id, { ...(values.from !== undefined && { from: values.from }), ...(values.to !== undefined && { to: values.to }) });
          io.out(values.json ? JSON.stringify(read) : usageTable(read));
          return EXIT.ok;
        }
        const usage = {
          ...(values['input-tokens'] !== undefined && { inputTokens: number('input-tokens', values['input-tokens']) }),
          ...(values['output-tokens'] !== undefined && { outputTokens: number('output-tokens', values['output-tokens']) }),
          ...(values['cost-micros'] !== undefined && { costMicros: number('cost-micros', values['cost-micros']) }),
          ...(values.model !== undefined && { model: values.model }),
        };
        if (!Object.keys(usage).length) throw new UsageError('usage needs at least one of --input-tokens, --output-tokens, --cost-micros, --model (the run\'s totals so far), or --report.');
        return await report(await current(), { usage }, (run, control) => {
          const u = run.usage;
          if (values.json) io.out(JSON.stringify({ usage: u, control }));
          else io.out(`usage: ${u.inputTokens} input tokens, ${u.outputTokens} output tokens, cost ${money(u.costMicros)}${u.model ? `, model ${u.model}` : ''}${control ? `\ncontrol: ${control}` : ''}`);
        });
      }
      case 'done':
        return await report(await current(), { status: 'done', ...(values.log !== undefined && { log: values.log }) });
      case 'handover': {
        const who = values.to?.trim();
        if (!who) throw new UsageError('handover needs --to "<who has the task now>".');
        return await report(await current(), { status: 'handed_over', step: `Handed over to ${who}`.slice(0, 200), ...(values.log !== undefined && { log: values.log }) });
      }
      case 'rules': {
        const { project } = await work.me();
        const rules = await work.client.rules(project.id);
        if (values.json) io.out(JSON.stringify({ rules }));
        else if (rules.text) io.out(rules.text);
        else io.err(`board-agent: ${project.name} has no rules for agents yet.`);
        return EXIT.ok;
      }
      case 'status': {
        const run = await work.client.run((await current()).runId);
        show(run);
        return EXIT.ok;
      }
      case 'runs': {
        const open = await work.openRuns();
        const mine = state.read(config.url);
        if (values.json) io.out(JSON.stringify({ runs: open.map((run) => ({ ...run, current: run.taskId === mine?.taskId })) }));
        else if (!open.length) io.err('board-agent: You have no open run.');
        else for (const run of open) io.out(`${run.taskId === mine?.taskId ? '*' : ' '} ${listed([run])} ${run.title}`);
        return EXIT.ok;
      }
      case 'mcp':
        throw new UsageError('mcp takes no arguments.');
      default:
        throw new UsageError(`Unknown command ${command}.\n${USAGE}`);
    }
  } catch (error) {
    return failed(error, state, picked, io);
  }
}

function failed(error: unknown, state: StateFile, picked: CurrentRun | null, io: Io): number {
  const say = (code: number, message: string) => (io.err(`board-agent: ${message}`), code);
  if (error instanceof UsageError) return say(EXIT.usage, error.message);
  if ((error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) return say(EXIT.usage, `${(error as Error).message}\n${USAGE}`);
  if (error instanceof RunEnded) {
    const taskId = error.run?.taskId ?? picked?.taskId;
    if (error.kind !== 'stop' && taskId) state.drop(taskId);
    return say(error.kind === 'stop' || error.kind === 'taken_over' ? EXIT.stopped : EXIT.closed, error.message);
  }
  if (error instanceof NoAnswer) return say(EXIT.noAnswer, error.message);
  if (error instanceof BoardApiError) {
    if (error.network) return say(EXIT.network, error.message);
    if (error.status === 401 || error.message === 'That token belongs to another project.') return say(EXIT.badToken, `${error.message} Check BOARD_TOKEN.`);
    return say(EXIT.refused, error.message);
  }
  return say(EXIT.refused, error instanceof Error ? error.message : String(error));
}
