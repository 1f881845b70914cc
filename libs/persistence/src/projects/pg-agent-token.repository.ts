import { Injectable } from '@nestjs/common';
import { AgentTokenRecord, AgentTokenRepository } from '@board/projects';
import { Database } from '../database';
import { sql } from '../sql';

@Injectable()
export class PgAgentTokenRepository extends AgentTokenRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async insert(t: AgentTokenRecord): Promise<void> {
    await this.db.exec(
      sql`INSERT INTO agent_tokens (id, project_id, agent_id, digest, prefix) VALUES (${t.id}, ${t.projectId}, ${t.agentId}, ${t.digest}, ${t.prefix})`,
    );
  }

  async delete(projectId: string, tokenId: string): Promise<boolean> {
    const gone = (await this.db.exec(sql`DELETE FROM agent_tokens WHERE project_id = ${projectId} AND id = ${tokenId}`)).count > 0;
    if (gone) this.db.credentialsChanged();
    return gone;
  }

  async deleteForAgent(projectId: string, agentId: string): Promise<void> {
    await this.db.exec(sql`DELETE FROM agent_tokens WHERE project_id = ${projectId} AND agent_id = ${agentId}`);
    this.db.credentialsChanged();
  }
}
