import { AgentTokenRecord, AgentTokenRepository } from '@board/projects';

/** AgentTokenRepository in memory, in the order they were issued. */
export class InMemoryAgentTokenRepository extends AgentTokenRepository {
  readonly tokens: AgentTokenRecord[] = [];

  async insert(token: AgentTokenRecord): Promise<void> {
    this.tokens.push({ ...token });
  }

  async delete(projectId: string, tokenId: string): Promise<boolean> {
    const at = this.tokens.findIndex((t) => t.projectId === projectId && t.id === tokenId);
    if (at < 0) return false;
    this.tokens.splice(at, 1);
    return true;
  }

  async deleteForAgent(projectId: string, agentId: string): Promise<void> {
    this.tokens.splice(0, this.tokens.length, ...this.tokens.filter((t) => !(t.projectId === projectId && t.agentId === agentId)));
  }
}
