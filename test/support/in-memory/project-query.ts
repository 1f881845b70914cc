import type { AgentTokenView, MemberView, ProjectQuery, ProjectView } from '@board/persistence';
import { InMemoryAgentTokenRepository } from './agent-token-repository';
import { InMemoryMemberRepository } from './member-repository';
import { InMemoryProjectRepository } from './project-repository';
import { InMemoryUserRepository } from './user-repository';

/**
 * The project read model over the in-memory repositories: the same views, read from what the
 * specs' writes left.
 */
export class InMemoryProjectQuery implements ProjectQuery {
  /** Waiting runs by project (the runs are not this world's). */
  readonly waiting = new Map<string, number>();

  constructor(
    private readonly projects: InMemoryProjectRepository,
    private readonly members: InMemoryMemberRepository,
    private readonly users: InMemoryUserRepository,
    private readonly agentTokens: InMemoryAgentTokenRepository,
  ) {}

  /** Task counts are not this world's: each project counts 0, as when `countTasks` is off. */
  async listFor(userId: string): Promise<(ProjectView & { taskCount: number })[]> {
    const views = await Promise.all(this.members.members.filter((m) => m.userId === userId).map((m) => this.projectFor(m.projectId, userId)));
    return views.flatMap((v) => (v ? [{ ...v, taskCount: 0 }] : []));
  }

  async projectFor(projectId: string, userId: string): Promise<ProjectView | null> {
    const project = this.projects.rows.get(projectId);
    const member = await this.members.find(projectId, userId);
    if (!project || !member) return null;
    const { id, name, key, ownerId, doneWhen, releases, sprints, createdAt, dailyBudgetMicros } = project;
    return { id, name, key, ownerId, role: member.role, doneWhen, releases, sprints, createdAt, dailyBudgetMicros };
  }

  async member(projectId: string, userId: string): Promise<MemberView | null> {
    const member = await this.members.find(projectId, userId);
    const user = this.users.rows.get(userId);
    if (!member || !user) return null;
    return { id: user.id, name: user.name, email: user.email, color: user.color, emoji: user.emoji, role: member.role, kind: user.kind };
  }

  async tokens(projectId: string): Promise<AgentTokenView[]> {
    return this.agentTokens.tokens
      .filter((t) => t.projectId === projectId)
      .map((t) => ({ id: t.id, agentId: t.agentId, prefix: t.prefix, createdAt: new Date(0), lastUsedAt: null }));
  }

  async rules(projectId: string): Promise<{ text: string; updatedAt: Date | null } | null> {
    const project = this.projects.rows.get(projectId);
    return project ? { text: project.rulesText, updatedAt: project.rulesUpdatedAt } : null;
  }

  async waitingRuns(projectId: string): Promise<number> {
    return this.waiting.get(projectId) ?? 0;
  }
}
