/**
 * What the agent CLI and the MCP server share: the connection from the environment, finding a task
 * by key or id, telling why a run refused a report (stop, take-over, lost lease, closed), claiming
 * the next task of the work queue, and asking a person and waiting for the answer (extensions.md
 * § 1.2: the run's question, answered on the card; decisions.md › Runs: a person's comment on a
 * waiting run sets control `resume` too, so a comment still answers; a report `running` clears it).
 */
import { BoardApiError, BoardClient, type AgentMe, type Board, type ClaimBody, type ControlWord, type NextBody, type Run, type Task } from '@board/client';
import { beatEvery } from './beat-timer';
import { heldFrom, type HeldRun } from './held-runs';

export interface AgentConfig {
  url: string;
  token: string;
}

/** Misuse by the caller (arguments, environment, no current run): exit code 2 in the CLI. */
export class UsageError extends Error {}

/** Why the agent must stop working on its run. */
export type EndingKind = 'stop' | 'taken_over' | 'lost' | 'closed';

/** The run cannot go on: a person asked to stop, took the task over, the lease ran out, or it is closed. */
export class RunEnded extends Error {
  constructor(
    readonly kind: EndingKind,
    message: string,
    readonly run?: Run,
  ) {
    super(message);
  }
}

/** No answer came within the time the agent was willing to wait (`timedOut`), or the wait was cancelled. */
export class NoAnswer extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

/** The claim's refusal when the task has an open run: the agent's own run is resumed instead. */
const ALREADY_OPEN = 'Another run is already open on this task.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A question for a person: free text, or options to choose one (or, with `multiple`, several) of. */
export interface AskedQuestion {
  text: string;
  options?: string[];
  multiple?: boolean;
}

/** How a person answered: on the question (choices for one with options), or in a comment. */
export interface Answered {
  /** The answer text: the free text, the comment, or the choices joined by `, `. */
  text: string;
  /** The chosen options, in the order offered; null for a free answer or a comment. */
  choices: string[] | null;
  by: string | null;
  via: 'answer' | 'comment';
  commentId?: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv): AgentConfig {
  const url = env.BOARD_URL?.trim();
  const token = env.BOARD_TOKEN?.trim();
  if (!url || !token) {
    const missing = [!url && 'BOARD_URL', !token && 'BOARD_TOKEN'].filter(Boolean);
    throw new UsageError(`Set ${missing.join(' and ')} (the board's address, and the agent token made in the project's People settings).`);
  }
  if (!/^https?:\/\//.test(url)) throw new UsageError('BOARD_URL must be an http or https address, like http://127.0.0.1:3000.');
  return { url, token };
}

/**
 * The warning for a BOARD_URL that is plain `http://` to another machine (said once, on stderr,
 * by the CLI and the MCP server alike): the token and all the board says would cross the network
 * unencrypted. Loopback addresses (localhost, 127.0.0.0/8, ::1) are this machine: no warning.
 */
export function plainHttpWarning(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' || isLoopback(parsed.hostname)) return null;
  return `BOARD_URL is plain http:// to ${parsed.host}, which is not this machine: the token and everything the board says cross the network unencrypted. Use https:// unless that network is yours alone.`;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function endingMessage(run: Run): RunEnded {
  if (run.status === 'taken_over') return new RunEnded('taken_over', 'A person took the task over, so this run is closed. Stop working on it.', run);
  if (run.status === 'lost') return new RunEnded('lost', 'The run’s lease ran out (no report in time), so the run is closed. Claim the task again to go on.', run);
  return new RunEnded('closed', `That run is closed (${run.status}).`, run);
}

/**
 * How long a wait for a person's answer outlasts a service that keeps answering busy (503, 429) or
 * cannot be reached: a restart or a burst passes; past this the wait ends with the last failure.
 */
export const OUTAGE_MS = 60_000;

/** A failure that says nothing about the run, only that the service could not take the call now. */
export function passing(error: unknown): boolean {
  return error instanceof BoardApiError && (error.network || error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504);
}

export const STOP_MESSAGE = 'A person asked this run to stop. Finish it with status stopped (board-agent report --status stopped, or the finish tool).';

export class AgentWork {
  private self?: AgentMe;
  private people?: Set<string>;

  constructor(
    readonly client: BoardClient,
    private readonly beatMs = 30_000,
  ) {}

  static fromConfig(config: AgentConfig, beatMs?: number): AgentWork {
    // No redirect to another origin is followed: the token must not travel there, and its answer is not the board's.
    return new AgentWork(new BoardClient({ baseUrl: config.url, token: config.token, redirects: 'same-origin' }), beatMs);
  }

  async me(): Promise<AgentMe> {
    return (this.self ??= await this.client.agentMe());
  }

  /** A task of the agent's project by id or key (`ABC-12`, any case). */
  async resolveTask(ref: string): Promise<{ id: string; key: string; title: string }> {
    const wanted = ref.trim();
    if (!wanted) throw new UsageError('Name the task by its key (like ABC-12) or its id.');
    if (UUID.test(wanted)) {
      const task = await this.client.task(wanted);
      return { id: task.id, key: task.key, title: task.title };
    }
    const { project } = await this.me();
    const board = await this.client.board(project.id);
    const key = wanted.toUpperCase();
    const found = board.tasks.find((t) => t.key === key) ?? board.archived.find((t) => t.key === key);
    if (!found) throw new BoardApiError(404, `No task ${key} on the board of ${project.name}.`);
    return { id: found.id, key: found.key, title: found.title };
  }

  /**
   * The agent's own open runs, read off the board (it carries every open run of the project), so
   * a new session or another folder finds what an earlier one claimed. A handed-over run is not
   * the agent's work any more and is left out.
   */
  async openRuns(board?: Board): Promise<HeldRun[]> {
    const me = await this.me();
    return heldFrom(board ?? (await this.client.board(me.project.id)), me.agent.id);
  }

  /**
   * Claims the task; when the agent's own run is already open on it (an earlier session claimed
   * it), answers that run with `resumed` instead of the 409, since the work is the agent's anyway.
   */
  async claimOrResume(ref: string, body: ClaimBody): Promise<{ task: { id: string; key: string; title: string }; run: Run; resumed: boolean }> {
    const task = await this.resolveTask(ref);
    try {
      return { task, run: await this.client.claim(task.id, body), resumed: false };
    } catch (error) {
      if (!(error instanceof BoardApiError && error.status === 409 && error.message === ALREADY_OPEN)) throw error;
      const [{ agent }, open] = await Promise.all([this.me(), this.client.task(task.id)]);
      if (!open.run || open.run.agent?.id !== agent.id || open.run.status === 'handed_over') throw error;
      return { task, run: open.run, resumed: true };
    }
  }

  /** Runs a run call; a 409 (closed) is turned into why it ended, read from the run itself. */
  async onRun<T>(runId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof BoardApiError && error.status === 409 && error.message === 'That run is closed.') {
        throw endingMessage(await this.client.run(runId));
      }
      throw error;
    }
  }

  /** One heartbeat; throws RunEnded on a stop or a closed run, answers the control word otherwise. */
  async beat(runId: string): Promise<ControlWord | null> {
    const { control } = await this.onRun(runId, () => this.client.beat(runId));
    if (control === 'stop') throw new RunEnded('stop', STOP_MESSAGE);
    return control;
  }

  private async isPerson(userId: string): Promise<boolean> {
    if (!this.people?.has(userId)) {
      const { project } = await this.me();
      const board = await this.client.board(project.id);
      this.people = new Set(board.members.filter((m) => m.kind === 'human').map((m) => m.id));
    }
    return this.people.has(userId);
  }

  /**
   * Claims the next task of the project's work queue (extensions.md § 1.1); null when nothing is
   * left for this agent.
   */
  async next(body: NextBody = {}): Promise<{ task: Task; run: Run } | null> {
    const { project } = await this.me();
    const taken = await this.client.next(project.id, body);
    return taken.run && taken.task ? { task: taken.task, run: taken.run } : null;
  }

  /**
   * Sets the run `waiting` with the question (free, or with options to choose from), then waits
   * for the answer: a person's answer to the question, or, as before questions had options, a
   * person's comment on the task after it was asked. It watches the project stream (re-reading
   * the task on every `ready` and on changes about it) and re-reads on every beat too, so a missed
   * event costs at most one beat. Answers it after a report `running` that clears the `resume`
   * the answer set. Throws RunEnded on a stop or take-over, NoAnswer after `timeoutMs`.
   */
  async ask(runId: string, taskId: string, question: AskedQuestion, options: { timeoutMs?: number; signal?: AbortSignal; onBeat?: (beats: number) => void } = {}): Promise<Answered> {
    const { project } = await this.me();
    const text = question.text;
    const sent = await this.onRun(runId, () =>
      this.client.report(runId, { status: 'waiting', question: { text, ...(question.options?.length && { options: question.options }), ...(question.multiple !== undefined && { multiple: question.multiple }) } }),
    );
    const asked = sent.run.question;
    if (!asked) throw new Error('The service did not keep the question.');
    const stop = new AbortController();
    let failure: unknown = null;
    let found: Answered | null = null;
    const fail = (error: unknown) => {
      failure ??= error;
      stop.abort();
    };
    // A beat or a read the service could not take just now (busy, restarting, out of reach) ends
    // nothing: the next one tries again. Only an outage past OUTAGE_MS ends the wait with it.
    let failingSince: number | null = null;
    const fine = () => (failingSince = null);
    const failUnlessPassing = (error: unknown) => {
      if (!passing(error)) return fail(error);
      failingSince ??= Date.now();
      if (Date.now() - failingSince >= OUTAGE_MS) fail(error);
    };
    if (options.signal?.aborted) fail(new NoAnswer('The wait for an answer was cancelled.'));
    options.signal?.addEventListener('abort', () => fail(new NoAnswer('The wait for an answer was cancelled.')));
    const answered = async (): Promise<Answered | null> => {
      const task = await this.client.task(taskId);
      if (task.run?.id !== runId) throw endingMessage(await this.client.run(runId));
      const answer = task.run.question?.id === asked.id ? task.run.question.answer : null;
      if (answer) return { text: answer.text, choices: answer.choices, by: answer.by?.name ?? null, via: 'answer' };
      const after = task.comments.filter((c) => c.createdAt >= asked.askedAt);
      for (const comment of after) {
        if (comment.authorId && (await this.isPerson(comment.authorId))) return { text: comment.body, choices: null, by: comment.author?.name ?? null, via: 'comment', commentId: comment.id };
      }
      return null;
    };
    // One check at a time; the first answer found ends the wait.
    let checking: Promise<void> = Promise.resolve();
    const check = () =>
      (checking = checking.then(async () => {
        if (found || stop.signal.aborted) return;
        const answer = await answered();
        fine();
        if (answer) {
          found = answer;
          stop.abort();
        }
      }).catch(failUnlessPassing));
    let beaten = 0;
    const beats = beatEvery(this.beatMs, () =>
      this.beat(runId).then(
        () => (fine(), options.onBeat?.(++beaten), check()),
        failUnlessPassing,
      ),
    );
    const { timeoutMs } = options;
    const seconds = Math.round((timeoutMs ?? 0) / 1000);
    const timeout = timeoutMs ? setTimeout(() => fail(new NoAnswer(`No answer came within ${seconds} seconds.`, true)), timeoutMs) : null;
    try {
      try {
        for await (const event of this.client.stream(project.id, { signal: stop.signal })) {
          const about = event.type === 'ready' || (event.type === 'change' && (event.data.taskId === taskId || event.data.scope === 'board'));
          if (about) await check();
          if (found) break;
        }
      } catch (error) {
        if (!found && !stop.signal.aborted) throw error;
      }
      await checking;
      if (found) {
        await this.onRun(runId, () => this.client.report(runId, { status: 'running' }));
        return found;
      }
      throw failure ?? new NoAnswer('The wait for an answer ended.');
    } catch (error) {
      const reason = failure ?? error;
      // The card must not go on saying the run waits for a person once the agent stopped waiting.
      if (reason instanceof NoAnswer && reason.timedOut) await this.gaveUp(runId, text, seconds);
      throw reason;
    } finally {
      beats.stop();
      if (timeout) clearTimeout(timeout);
      stop.abort();
    }
  }

  /** After a timed-out ask: the run goes back to running with a log line saying nobody answered. */
  private async gaveUp(runId: string, question: string, seconds: number): Promise<void> {
    const asked = question.length > 300 ? `${question.slice(0, 299)}…` : question;
    await this.onRun(runId, () => this.client.report(runId, { status: 'running', log: `asked "${asked}" — no answer in ${seconds} s` })).catch(() => undefined);
  }
}
