/**
 * The MCP server's state of one agent's work: the runs it holds (one per task; the current one is
 * the last claimed or named), the heartbeat timer that keeps them all beating, the control word a
 * person set on each, and why a run cannot go on (stop, take-over, lost lease); plus how tool
 * answers and refusals are shaped. Runs are found on the board when the session does not know
 * them yet (a new session, a restarted server), so no run is lost with the process. Used by
 * mcp-server.ts; MCP over HTTP (apps/api/src/mcp) builds one per request, stateless, and stops its
 * timer when the request ends: between requests the agent beats or reports itself.
 */
import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { BoardApiError, type ControlWord, type ReportBody } from '@board/client';
import { AgentWork, RunEnded, STOP_MESSAGE } from './agent-work';
import { beatEvery } from './beat-timer';
import { nameOne, noRunOn, type HeldRun } from './held-runs';

export interface Current {
  runId: string;
  taskId: string;
  taskKey: string;
}

/** A held run and what the session heard about it. */
interface Slot extends Current {
  ended: RunEnded | null;
  control: ControlWord | null;
  /** Asks waiting on it now: an ask beats its run itself (agent-work.ts), the timer leaves it be. */
  asks: number;
}

/** What the SDK hands a tool besides its arguments (the parts used here). */
export interface ToolExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

const PAUSE_NOTE = 'A person asked this run to pause: report status paused, then call heartbeat until control is resume.';
const NAMING = { option: 'the task argument' };
const NO_RUN = 'No current run: claim a task first (claim_task).';

/** One agent's work through MCP: the runs it holds, their heartbeat timer and what a person asked. */
export class McpAgent {
  private readonly runs = new Map<string, Slot>();
  private currentTask: string | null = null;
  private timer: { stop(): void } | null = null;

  constructor(
    readonly work: AgentWork,
    private readonly beatMs: number,
  ) {}

  /** The held runs, current first. */
  held(): Current[] {
    return [...this.runs.values()].sort((a, b) => Number(b.taskId === this.currentTask) - Number(a.taskId === this.currentTask));
  }

  /** Holds a run (claimed or resumed) and makes it current; runs that ended for good are let go. */
  start(current: Current, control: ControlWord | null = null): void {
    for (const [taskId, slot] of this.runs) if (slot.ended && slot.ended.kind !== 'stop') this.runs.delete(taskId);
    this.hold(current, control);
    this.currentTask = current.taskId;
  }

  private hold(current: Current, control: ControlWord | null): void {
    const slot: Slot = { runId: current.runId, taskId: current.taskId, taskKey: current.taskKey, ended: null, control: null, asks: 0 };
    this.runs.set(current.taskId, slot);
    this.heard(slot, control);
    this.keepBeating();
  }

  /** Adds the agent's open runs the session does not hold yet (found on the board). */
  adopt(open: readonly HeldRun[], controls: ReadonlyMap<string, ControlWord | null> = new Map()): void {
    for (const run of open) if (this.runs.get(run.taskId)?.runId !== run.runId) this.hold(run, controls.get(run.runId) ?? null);
  }

  /** Reads the board for the agent's open runs and holds them. */
  async resume(): Promise<void> {
    const me = await this.work.me();
    const board = await this.work.client.board(me.project.id);
    this.adopt(await this.work.openRuns(board), new Map(board.runs.map((r) => [r.id, r.control])));
  }

  private keepBeating(): void {
    if (this.timer || !this.live().length) return;
    // One round of beats at a time (beat-timer.ts): a slow service must not pile them up.
    this.timer = beatEvery(this.beatMs, () => this.beatAll());
  }

  private live(): Slot[] {
    return [...this.runs.values()].filter((slot) => !slot.ended);
  }

  private async beatAll(): Promise<void> {
    for (const slot of this.live()) if (!slot.asks) await this.beatSlot(slot).catch(() => undefined);
    if (!this.live().length) this.stopBeating();
  }

  stopBeating(): void {
    this.timer?.stop();
    this.timer = null;
  }

  /** Records why the run cannot go on; the beating stops when no run is left to beat. */
  end(current: Current, ending: RunEnded): void {
    const slot = this.runs.get(current.taskId);
    if (slot) slot.ended = ending;
    if (!this.live().length) this.stopBeating();
  }

  /** Remembers the control word of a report or beat answer; a stop ends the work. */
  private heard(slot: Slot, control: ControlWord | null): void {
    slot.control = control;
    if (control === 'stop') this.end(slot, new RunEnded('stop', STOP_MESSAGE));
  }

  /** Runs `wait` (an ask, which beats the run itself) with the run left out of the timer's beats. */
  async asking<T>(current: Current, wait: () => Promise<T>): Promise<T> {
    const slot = this.runs.get(current.taskId);
    if (slot) slot.asks++;
    try {
      return await wait();
    } finally {
      if (slot) slot.asks--;
    }
  }

  /** Control words are forgotten once a person's answer set the run going again. */
  answered(current: Current): void {
    const slot = this.runs.get(current.taskId);
    if (slot) slot.control = null;
  }

  private async beatSlot(slot: Slot): Promise<ControlWord | null> {
    try {
      const control = await this.work.beat(slot.runId);
      this.heard(slot, control);
      return control;
    } catch (error) {
      if (error instanceof RunEnded) this.end(slot, error);
      throw error;
    }
  }

  async beat(task?: string): Promise<ControlWord | null> {
    return this.beatSlot(await this.slot(task));
  }

  /**
   * The held run a run tool acts on: the named task's, else the current one, else the only one.
   * Looks on the board when the session holds none (or not the named one). Throws why there is
   * none, or why it cannot go on (a stop still lets a closing report through).
   */
  async mustRun(task?: string, options: { closing?: boolean } = {}): Promise<Current> {
    const slot = await this.slot(task);
    if (slot.ended && !(options.closing && slot.ended.kind === 'stop')) throw slot.ended;
    return slot;
  }

  private async slot(task?: string): Promise<Slot> {
    if (task) {
      const found = await this.work.resolveTask(task);
      if (!this.runs.has(found.id)) await this.resume();
      const slot = this.runs.get(found.id);
      if (!slot) throw new RunEnded('closed', noRunOn(found.key, 'claim_task'));
      return slot;
    }
    if (!this.runs.size) await this.resume();
    const current = this.currentTask ? this.runs.get(this.currentTask) : undefined;
    if (current) return current;
    const held = [...this.runs.values()];
    if (held.length === 1) return held[0];
    if (!held.length) throw new RunEnded('closed', NO_RUN);
    throw new RunEnded('closed', nameOne(held, NAMING));
  }

  async report(body: ReportBody, task?: string) {
    const current = await this.mustRun(task, { closing: body.status === 'stopped' || body.status === 'done' || body.status === 'failed' });
    const slot = this.runs.get(current.taskId)!;
    try {
      const answer = await this.work.onRun(current.runId, () => this.work.client.report(current.runId, body));
      if (answer.run.endedAt || answer.run.status === 'handed_over') {
        this.runs.delete(current.taskId);
        if (this.currentTask === current.taskId) this.currentTask = null;
        if (!this.live().length) this.stopBeating();
      } else this.heard(slot, answer.control);
      return answer;
    } catch (error) {
      if (error instanceof RunEnded) this.end(current, error);
      throw error;
    }
  }

  /** The notes an answer carries: a held run that ended, or one a person asked to pause. */
  private notes(): string[] {
    const slots = this.held().map((c) => this.runs.get(c.taskId)!);
    const several = slots.length > 1;
    return slots.flatMap((slot) => {
      const note = slot.ended ? slot.ended.message : slot.control === 'pause' ? PAUSE_NOTE : null;
      return note ? [several ? `${slot.taskKey}: ${note}` : note] : [];
    });
  }

  /** A tool's answer: the result as JSON text, plus a note of a pending pause or an ended run. */
  answer(result: unknown): CallToolResult {
    const content: CallToolResult['content'] = [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result, null, 2) }];
    for (const note of this.notes()) content.push({ type: 'text', text: note });
    return { content };
  }

  refusal(error: unknown): CallToolResult {
    const message = error instanceof BoardApiError || error instanceof RunEnded || error instanceof Error ? error.message : String(error);
    return { content: [{ type: 'text', text: message }], isError: true };
  }

  /** A tool without arguments: the SDK calls it with the extra alone. */
  bare(run: () => Promise<unknown>) {
    const tool = this.tool(() => run());
    return (extra: ToolExtra) => tool(undefined, extra);
  }

  tool<A>(run: (args: A, extra: ToolExtra) => Promise<unknown>) {
    return async (args: A, extra: ToolExtra): Promise<CallToolResult> => {
      try {
        return this.answer(await run(args, extra));
      } catch (error) {
        return this.refusal(error);
      }
    };
  }
}
