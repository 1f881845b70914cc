/**
 * How many MCP requests each agent has open on this instance, so one agent cannot tie up the
 * instance with long tool calls (an `ask_person` may wait for hours). Per instance on purpose: it
 * bounds this process's sockets and timers, which no other instance shares; an agent spread over
 * several instances gets the bound on each. A further request is 429 with `Retry-After: 1`, like
 * a heavy read past its slots.
 */
import { fail } from '@board/kernel';

export class McpSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly perAgent: number) {}

  /** Takes a slot of the agent's or refuses; answers the release (safe to call twice). */
  take(agentId: string): () => void {
    const held = this.open.get(agentId) ?? 0;
    if (held >= this.perAgent) fail('heavy.too_many');
    this.open.set(agentId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(agentId) ?? 1) - 1;
      if (left > 0) this.open.set(agentId, left);
      else this.open.delete(agentId);
    };
  }
}
