/**
 * The MCP server's state of one agent's work: the current run, the heartbeat timer, the control word
 * a person set, and why the run cannot go on (stop, take-over, lost lease); plus how tool answers
 * and refusals are shaped. Used by mcp-server.ts.
 */
import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { BoardApiError, type ControlWord, type ReportBody } from '@board/client';
import { AgentWork, RunEnded, STOP_MESSAGE } from './agent-work';

export interface Current {
  runId: string;
  taskId: string;
  taskKey: string;
}

/** What the SDK hands a tool besides its arguments (the parts used here). */
export interface ToolExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

const PAUSE_NOTE = 'A person asked this run to pause: report status paused, then call heartbeat until control is resume.';

/** One agent's work through MCP: the current run, its heartbeat timer and what a person asked. */
export class McpAgent {
  current: Current | null = null;
  ended: RunEnded | null = null;
  control: ControlWord | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly work: AgentWork,
    private readonly beatMs: number,
  ) {}

  start(current: Current): void {
    this.stopBeating();
    this.current = current;
    this.ended = null;
    this.control = null;
    this.timer = setInterval(() => void this.beat().catch(() => undefined), this.beatMs);
  }

  stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Records why the run cannot go on and stops the heartbeat. */
  end(ending: RunEnded): void {
    this.ended = ending;
    this.stopBeating();
  }

  /** Remembers the control word of a report or beat answer; a stop ends the work. */
  heard(control: ControlWord | null): void {
    this.control = control;
    if (control === 'stop') this.end(new RunEnded('stop', STOP_MESSAGE));
  }

  async beat(): Promise<ControlWord | null> {
    const current = this.mustRun();
    try {
      const control = await this.work.beat(current.runId);
      this.heard(control);
      return control;
    } catch (error) {
      if (error instanceof RunEnded) this.end(error);
      throw error;
    }
  }

  /** The open run a run tool acts on; throws the reason when there is none or it ended. */
  mustRun(options: { closing?: boolean } = {}): Current {
    if (this.ended && !(options.closing && this.ended.kind === 'stop')) throw this.ended;
    if (!this.current) throw new RunEnded('closed', 'No current run: claim a task first (claim_task).');
    return this.current;
  }

  async report(body: ReportBody) {
    const current = this.mustRun({ closing: body.status === 'stopped' || body.status === 'done' || body.status === 'failed' });
    try {
      const answer = await this.work.onRun(current.runId, () => this.work.client.report(current.runId, body));
      if (answer.run.endedAt || answer.run.status === 'handed_over') {
        this.stopBeating();
        this.current = null;
        this.ended = null;
      } else this.heard(answer.control);
      return answer;
    } catch (error) {
      if (error instanceof RunEnded) this.end(error);
      throw error;
    }
  }

  /** A tool's answer: the result as JSON text, plus a note of a pending pause or an ended run. */
  answer(result: unknown): CallToolResult {
    const content: CallToolResult['content'] = [{ type: 'text', text: typeof result === 'string' ? result : JSON.stringify(result, null, 2) }];
    if (this.ended) content.push({ type: 'text', text: this.ended.message });
    else if (this.control === 'pause') content.push({ type: 'text', text: PAUSE_NOTE });
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
