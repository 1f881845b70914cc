import { Injectable } from '@nestjs/common';
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Clock, DomainError, fail, feedLine, inTurn, notice, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import {
  checkDoneWhen, DoneWhen, DoneWhenAsked, keyBases, MemberRepository, Project, ProjectChange, ProjectCreate, ProjectRepository, projectSeed, spareKey,
} from '@board/projects';
import { ProjectQuery } from '@board/persistence';
import { AuthContext, TokenAuth } from '../auth/auth-context';
import { BudgetService } from '../runs/budget.service';
import { requireView } from './project-view';

/** Derived keys picked by the store before falling back to keys of other letters. */
const DERIVED_TRIES = 10;

@Injectable()
export class ProjectsService {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly members: MemberRepository,
    private readonly queries: ProjectQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly budget: BudgetService,
  ) {}

  /** An agent's own view of itself and its one project, with the project's waiting runs. */
  async agentMe(auth: TokenAuth) {
    const project = requireView(await this.queries.projectFor(auth.tokenProjectId, auth.caller.id));
    const { id, name, color, emoji } = auth.caller;
    return {
      agent: { id, name, color, emoji },
      project: { id: project.id, name: project.name, key: project.key, role: project.role, waiting: await this.queries.waitingRuns(project.id) },
    };
  }

  list(auth: AuthContext) {
    return this.queries.listFor(auth.caller.id, true);
  }

  async create(auth: AuthContext, asked: ProjectCreate) {
    const id = randomUUID();
    const { name, key: sent } = asked;
    const bases = keyBases(name);
    for (let attempt = 1; ; attempt++) {
      const seed = projectSeed(randomUUID, asked.template);
      try {
        await this.uow.write(async () => {
          // A derived key is picked inside the transaction that inserts it, under the base's lock;
          // after many clashes (other names' keys landing on ours), a key of other letters.
          const key = sent ?? (attempt <= DERIVED_TRIES ? await this.projects.freeKey(bases) : null) ?? spareKey(randomInt);
          const project = Project.create({ id, name, key, ownerId: auth.caller.id, now: this.clock.now() });
          project.setDoneWhen({ propertyId: seed.status.id, optionIds: [seed.doneOptionId] });
          await this.projects.insert(project, seed);
          await this.members.add(id, auth.caller.id, 'owner');
          // A new project has nobody listening yet.
          return silent(undefined);
        });
      } catch (error) {
        // A derived key somebody took meanwhile: pick again. A sent key is the caller's to change.
        if (sent === null && attempt < DERIVED_TRIES * 2 && error instanceof DomainError && error.code === 'project.key_taken') continue;
        throw error;
      }
      return requireView(await this.queries.projectFor(id, auth.caller.id));
    }
  }

  async update(auth: AuthContext, projectId: string, change: ProjectChange, clientId: string | null = null) {
    await this.uow.write(
      async () => {
        const project = await this.load(projectId);
        const before = JSON.stringify(project.snapshot);
        if (change.name !== undefined) project.rename(change.name);
        if (change.key !== undefined) {
          const key = project.changeKey(change.key);
          if (await this.projects.keyTaken(key, projectId)) fail('project.key_taken', { key });
        }
        if (change.doneWhen !== undefined) project.setDoneWhen(await this.doneWhen(projectId, inTurn(change.doneWhen)));
        for (const flag of ['releases', 'sprints'] as const) {
          const sent = change[flag];
          if (sent === undefined) continue;
          const on = inTurn(sent);
          project.setFlag(flag, on);
          if (on) await this.ensureFlagProperty(projectId, flag);
        }
        if (change.dailyBudgetMicros !== undefined) project.setDailyBudget(change.dailyBudgetMicros);
        // A PATCH that changes nothing rings nothing.
        if (JSON.stringify(project.snapshot) === before) return silent(undefined);
        await this.projects.save(project);
        // A budget set at or below the day's cost pauses the running runs at once.
        const paused = change.dailyBudgetMicros !== undefined && (await this.budget.spent(projectId)) ? await this.budget.pauseRunning(projectId) : [];
        return withEvents(undefined, this.ring(projectId, clientId), paused);
      },
      { lockProject: projectId },
    );
    return requireView(await this.queries.projectFor(projectId, auth.caller.id));
  }

  async remove(projectId: string): Promise<void> {
    await this.projects.delete(projectId);
  }

  async handOver(auth: AuthContext, projectId: string, { userId }: { userId: string }, clientId: string | null = null): Promise<void> {
    await this.uow.write(
      async () => {
        const project = await this.load(projectId);
        const target = await this.members.find(projectId, userId);
        if (!target) fail('member.not_found');
        if (target.kind !== 'human') fail('project.hand_over_to_person');
        if (userId === project.ownerId) return silent(undefined);
        const previous = project.handOver(userId);
        await this.members.setRole(projectId, userId, 'owner');
        await this.members.setRole(projectId, previous, 'admin');
        await this.projects.save(project);
        return withEvents(undefined, this.ring(projectId, clientId));
      },
      { lockProject: projectId },
    );
  }

  async place(auth: AuthContext, projectId: string, { afterId = null }: { afterId?: string | null }): Promise<void> {
    await this.members.place(auth.caller.id, projectId, afterId === projectId ? null : afterId);
  }

  async rules(projectId: string) {
    const rules = await this.queries.rules(projectId);
    if (!rules) fail('project.not_found');
    return { text: rules.text, hash: sha256(rules.text), updatedAt: rules.updatedAt };
  }

  async writeRules(auth: AuthContext, projectId: string, { text }: { text: string }, clientId: string | null = null) {
    await this.uow.write(
      async () => {
        const project = await this.load(projectId);
        if (!project.writeRules(text, this.clock.now())) return silent(undefined);
        await this.projects.save(project);
        return withEvents(
          undefined,
          feedLine({ projectId, taskId: null, actorId: auth.caller.id, kind: 'rules', data: { hash: sha256(text), text } }),
          this.ring(projectId, clientId),
        );
      },
      { lockProject: projectId },
    );
    return this.rules(projectId);
  }

  /** A done-when against the property it names, read under the project's lock. */
  private async doneWhen(projectId: string, asked: DoneWhenAsked | null): Promise<DoneWhen | null> {
    if (asked === null) return null;
    const property = await this.projects.propertyOptions(projectId, asked.propertyId);
    if (!property) fail('property.not_in_project');
    return checkDoneWhen(asked, property);
  }

  /** Releases on: a dated select `Release` unless one exists; sprints on: an iteration `Sprint`. */
  private async ensureFlagProperty(projectId: string, flag: 'releases' | 'sprints'): Promise<void> {
    const releases = flag === 'releases';
    if (await this.projects.hasProperty(projectId, releases ? 'dated_select' : 'iteration')) return;
    await this.projects.addProperty(projectId, {
      id: randomUUID(),
      name: releases ? 'Release' : 'Sprint',
      type: releases ? 'select' : 'iteration',
      config: releases ? { dated: true } : {},
    });
  }

  /** Project settings, members and agents changed: `project` scope. */
  ring(projectId: string, clientId: string | null): WriteEvent {
    return notice({ projectId, scope: 'project', clientId });
  }

  private async load(projectId: string): Promise<Project> {
    const project = await this.projects.findById(projectId);
    if (!project) fail('project.not_found');
    return project;
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
