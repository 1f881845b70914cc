import { Injectable } from '@nestjs/common';
import { AgentTokenRecord, AgentTokenRepository } from '@board/projects';
import { Database } from '../database';

@Injectable()
export class PgAgentTokenRepository extends AgentTokenRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async insert(t: AgentTokenRecord): Promise<void> {
    await this.db.exec('INSERT INTO agent_tokens (id, project_id, agent_id, digest, prefix) VALUES ($1, $2, $3, $4, $5)', [
      t.id, t.projectId, t.agentId, t.digest, t.prefix,
    ]);
  }

  async delete(projectId: string, tokenId: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM agent_tokens WHERE project_id = $1 AND id = $2', [projectId, tokenId])).count > 0;
  }

  async deleteForAgent(projectId: string, agentId: string): Promise<void> {
    await this.db.exec('DELETE FROM agent_tokens WHERE project_id = $1 AND agent_id = $2', [projectId, agentId]);
  }
}
