import { readAlready, readInTurn } from '@board/kernel';
import { readDoneWhen } from '@board/projects';
import { Run } from '@board/runs';
import { AuthContext, TokenAuth } from '../auth/auth-context';
import { projectWorld } from '../../../../test/support/in-memory/project-world';
import { InMemoryRunRepository } from '../../../../test/support/in-memory/run-repository';
import { InMemoryUsageRepository } from '../../../../test/support/in-memory/usage-repository';
import { refusalCode } from '../../../../test/support/refusal-code';
import { BudgetService } from '../runs/budget.service';
import { ProjectsService } from './projects.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

async function setUp() {
  const world = projectWorld();
  const runs = new InMemoryRunRepository();
  const usage = new InMemoryUsageRepository();
  const service = new ProjectsService(world.projects, world.members, world.query.asQuery(), world.uow, world.clock, new BudgetService(runs, usage, world.clock));
  const owner = world.person('Olive');
  const as = (userId: string) => ({ caller: { id: userId } }) as unknown as AuthContext;
  const project = await world.project(owner, 'Web');
  world.uow.clear();
  return { ...world, runs, usage, service, owner, as, projectId: project.id };
}

/** A done-when as the request DTO reads it (its refusal kept for its turn). */
const doneWhen = (sent: unknown) => readInTurn(() => readDoneWhen(sent));

const ring = (projectId: string, clientId: string | null = 'tab-1') => ({ type: 'notice', change: { projectId, scope: 'project', clientId } });

describe('ProjectsService', () => {
  it('creates a project with a key derived from its name, its owner a member, in a silent write', async () => {
    const { service, owner, as, uow, members } = await setUp();
    const view = await service.create(as(owner.id), { name: 'Mobile app', key: null, template: 'empty' });
    expect(view).toMatchObject({ name: 'Mobile app', role: 'owner', doneWhen: expect.objectContaining({ optionIds: [expect.any(String)] }) });
    expect(view.key).toMatch(/^[A-Z]/);
    expect(await members.find(view.id, owner.id)).toMatchObject({ role: 'owner' });
    expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
  });

  it("refuses a sent key that is taken (the caller's to change), writing nothing", async () => {
    const { service, owner, as, projects, projectId, uow } = await setUp();
    const taken = projects.rows.get(projectId)!.key;
    expect(await refusalCode(service.create(as(owner.id), { name: 'Other', key: taken, template: 'empty' }))).toBe('project.key_taken');
    expect(uow.events).toEqual([]);
  });

  describe('update', () => {
    it('renames under the project lock with a ring; the same again rings nothing', async () => {
      const { service, owner, as, projectId, uow } = await setUp();
      expect(await service.update(as(owner.id), projectId, { name: 'Website' }, 'tab-1')).toMatchObject({ name: 'Website' });
      expect(uow.writes.map((w) => [w.options, w.events])).toEqual([[{ lockProject: projectId }, [ring(projectId)]]]);
      uow.clear();
      await service.update(as(owner.id), projectId, { name: 'Website' }, 'tab-1');
      expect(uow.events).toEqual([]);
    });

    it('turns releases on with a dated Release select, once', async () => {
      const { service, owner, as, projectId, projects } = await setUp();
      await service.update(as(owner.id), projectId, { releases: readAlready(true) });
      await service.update(as(owner.id), projectId, { releases: readAlready(false) });
      await service.update(as(owner.id), projectId, { releases: readAlready(true) });
      expect(projects.properties.get(projectId)!.filter((p) => p.name === 'Release')).toHaveLength(1);
    });

    it("refuses another project's key, and a doneWhen that is not a select's options", async () => {
      const { service, owner, as, projectId, project, projects, uow } = await setUp();
      const other = await project(owner, 'Other');
      uow.clear();
      expect(await refusalCode(service.update(as(owner.id), projectId, { key: other.key }))).toBe('project.key_taken');
      expect(await refusalCode(service.update(as(owner.id), projectId, { doneWhen: doneWhen('done') }))).toBe('project.done_when_invalid');
      const status = projects.properties.get(projectId)![0];
      expect(await refusalCode(service.update(as(owner.id), projectId, { doneWhen: doneWhen({ propertyId: status.id, optionIds: ['5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11'] }) }))).toBe(
        'project.done_when_invalid',
      );
      expect(await refusalCode(service.update(as(owner.id), projectId, { doneWhen: doneWhen({ propertyId: '5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11', optionIds: [] }) }))).toBe(
        'property.not_in_project',
      );
      expect(uow.events).toEqual([]);
    });

    it("a budget set at or below the day's cost pauses the running runs in the same write", async () => {
      const { service, owner, as, projectId, runs, usage, clock, uow } = await setUp();
      runs.put(Run.claim({ id: 'r1', projectId, taskId: 't1', agentId: 'bot', body: {}, now: clock.now() }));
      await usage.book({ projectId, runId: 'r1', agentId: 'bot', day: clock.now().toISOString().slice(0, 10), increase: { inputTokens: 0, outputTokens: 0, costMicros: 500 } });
      // The usage store reads the project's budget; in memory the spec stands in for the saved one.
      usage.budgets.set(projectId, 500);
      await service.update(as(owner.id), projectId, { dailyBudgetMicros: 500 }, 'tab-1');
      expect(uow.events).toEqual([ring(projectId), { type: 'notice', change: { projectId, scope: 'board', taskId: 't1', clientId: null } }]);
    });
  });

  it('hands the project over to a person who is a member: roles swap, with a ring', async () => {
    const { service, owner, as, projectId, person, agent, join, members, uow } = await setUp();
    const ann = person('Ann');
    await join(projectId, ann, 'member');
    const bot = await agent(projectId);
    expect(await refusalCode(service.handOver(as(owner.id), projectId, { userId: bot.id }))).toBe('project.hand_over_to_person');
    expect(await refusalCode(service.handOver(as(owner.id), projectId, { userId: '5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11' }))).toBe('member.not_found');
    await service.handOver(as(owner.id), projectId, { userId: ann.id }, 'tab-1');
    expect([(await members.find(projectId, ann.id))?.role, (await members.find(projectId, owner.id))?.role]).toEqual(['owner', 'admin']);
    expect(uow.events).toEqual([ring(projectId)]);
  });

  it('writes the agent rules with a rules line and a ring; the same text again is silent', async () => {
    const { service, owner, as, projectId, uow } = await setUp();
    const rules = await service.writeRules(as(owner.id), projectId, { text: 'Be kind.' }, 'tab-1');
    expect(rules).toMatchObject({ text: 'Be kind.', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(uow.events).toEqual([
      { type: 'line', line: { projectId, taskId: null, actorId: owner.id, kind: 'rules', data: { hash: rules.hash, text: 'Be kind.' } } },
      ring(projectId),
    ]);
    uow.clear();
    await service.writeRules(as(owner.id), projectId, { text: 'Be kind.' }, 'tab-1');
    expect(uow.events).toEqual([]);
    expect(await refusalCode(service.rules('gone'))).toBe('project.not_found');
  });

  it("answers an agent's own view of its project with the waiting runs", async () => {
    const { service, agent, projectId, query } = await setUp();
    const bot = await agent(projectId);
    query.waiting.set(projectId, 2);
    const me = await service.agentMe({ caller: { id: bot.id, name: 'Bot', color: bot.view.color, emoji: null }, tokenProjectId: projectId } as unknown as TokenAuth);
    expect(me).toMatchObject({ agent: { id: bot.id, name: 'Bot' }, project: { id: projectId, role: 'member', waiting: 2 } });
  });
});
