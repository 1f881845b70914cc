import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AGENT_TOKEN_PREFIX, digestOf, newSecret, ProfileChange, User, UserRepository } from '@board/accounts';
import { Clock, fail, notice, parseId, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { ProjectQuery } from '@board/persistence';
import { AgentTokenRepository, MemberRepository } from '@board/projects';

/** Agents are users of kind agent that belong to exactly one project, reached by their tokens. */
@Injectable()
export class AgentsService {
  constructor(
    private readonly users: UserRepository,
    private readonly members: MemberRepository,
    private readonly tokens: AgentTokenRepository,
    private readonly queries: ProjectQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async create(projectId: string, profile: ProfileChange & { name: string }, clientId: string | null = null) {
    const agent = User.createAgent({ id: randomUUID(), projectId, ...profile, now: this.clock.now() });
    const token = await this.uow.write(async () => {
      await this.users.insert(agent);
      await this.members.add(projectId, agent.id, 'member');
      return withEvents(await this.issueToken(projectId, agent.id), this.ring(projectId, clientId));
    });
    return { agent: await this.queries.member(projectId, agent.id), token: token.token };
  }

  /** The agent of the path is found before the body is read (`AgentFoundCheck`, the contract's order). */
  async assertFound(projectId: string, rawAgentId: string): Promise<void> {
    await this.load(projectId, rawAgentId);
  }

  async update(projectId: string, rawAgentId: string, change: ProfileChange, clientId: string | null = null) {
    const agent = await this.load(projectId, rawAgentId);
    if (agent.changeProfile(change)) {
      await this.uow.write(async () => {
        await this.users.save(agent);
        return withEvents(undefined, this.ring(projectId, clientId));
      });
    }
    return { agent: await this.queries.member(projectId, agent.id) };
  }

  /** Its tokens stop working; its comments and runs keep their author, so the user row stays. */
  async remove(projectId: string, rawAgentId: string, clientId: string | null = null): Promise<void> {
    const agent = await this.load(projectId, rawAgentId);
    await this.uow.write(async () => {
      await this.tokens.deleteForAgent(projectId, agent.id);
      await this.members.remove(projectId, agent.id);
      return withEvents(undefined, this.ring(projectId, clientId));
    });
  }

  async newToken(projectId: string, rawAgentId: string) {
    const agent = await this.load(projectId, rawAgentId);
    return this.issueToken(projectId, agent.id);
  }

  list(projectId: string) {
    return this.queries.tokens(projectId);
  }

  async revoke(projectId: string, rawTokenId: string): Promise<void> {
    const tokenId = parseId(rawTokenId, 'token');
    if (!(await this.tokens.delete(projectId, tokenId))) fail('token.not_found');
  }

  /** `svc_` and 32 random bytes, shown once; only the SHA-256 digest is kept. */
  private async issueToken(projectId: string, agentId: string): Promise<{ id: string; token: string }> {
    const token = newSecret(AGENT_TOKEN_PREFIX);
    const id = randomUUID();
    await this.tokens.insert({ id, projectId, agentId, digest: digestOf(token), prefix: token.slice(0, 8) });
    return { id, token };
  }

  private ring(projectId: string, clientId: string | null): WriteEvent {
    return notice({ projectId, scope: 'project', clientId });
  }

  private async load(projectId: string, rawAgentId: string): Promise<User> {
    const agentId = parseId(rawAgentId, 'agent');
    const agent = await this.users.findById(agentId);
    const member = agent?.isAgent && agent.projectId === projectId ? await this.members.find(projectId, agentId) : null;
    if (!agent || !member) fail('agent.not_found');
    return agent;
  }
}
