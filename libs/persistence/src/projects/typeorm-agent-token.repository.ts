import { Injectable } from '@nestjs/common';
import { AgentTokenRecord, AgentTokenRepository } from '@board/projects';
import { Database } from '../database';

@Injectable()
export class TypeormAgentTokenRepository extends AgentTokenRepository {
  constructor(private readonly db: Database) {
    super();
  }

  async insert(t: AgentTokenRecord): Promise<void> {
    await this.db.exec('INSERT INTO agent_tokens (id, project_id, agent_id, digest, prefix) VALUES ($1, $2, $3, $4, $5)', [
      t.id, t.projectId, t.agentId, t.digest, t.prefix,
    ]);
  }

  async use(digest: string, now: Date): Promise<AgentTokenRecord | null> {
    // The stamp is coarse (a minute) so a busy agent does not write a row on every call.
    const row = await this.db.one<{ id: string; project_id: string; agent_id: string; digest: string; prefix: string; last_used_at: Date | null }>(
      'SELECT id, project_id, agent_id, digest, prefix, last_used_at FROM agent_tokens WHERE digest = $1',
      [digest],
    );
    if (!row) return null;
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000) {
      await this.db.exec('UPDATE agent_tokens SET last_used_at = $3 WHERE project_id = $1 AND id = $2', [row.project_id, row.id, now]);
    }
    return { id: row.id, projectId: row.project_id, agentId: row.agent_id, digest: row.digest, prefix: row.prefix };
  }

  async delete(projectId: string, tokenId: string): Promise<boolean> {
    return (await this.db.exec('DELETE FROM agent_tokens WHERE project_id = $1 AND id = $2', [projectId, tokenId])).count > 0;
  }

  async deleteForAgent(projectId: string, agentId: string): Promise<void> {
    await this.db.exec('DELETE FROM agent_tokens WHERE project_id = $1 AND agent_id = $2', [projectId, agentId]);
  }
}
