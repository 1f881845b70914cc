import { digestOf } from '@board/accounts';
import { projectWorld } from '../../../../test/support/in-memory/project-world';
import { refusalCode } from '../../../../test/support/refusal-code';
import { AgentsService } from './agents.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

async function setUp() {
  const world = projectWorld();
  const service = new AgentsService(world.users, world.members, world.tokens, world.query, world.uow, world.clock);
  const owner = world.person('Olive');
  const project = await world.project(owner);
  return { ...world, service, owner, projectId: project.id };
}

const ring = (projectId: string, clientId: string | null = 'tab-1') => ({ type: 'notice', change: { projectId, scope: 'project', clientId } });
const MISSING = '5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11';

describe('AgentsService', () => {
  it('creates an agent as a member with its first token (only the digest kept), ringing the project', async () => {
    const { service, projectId, uow, tokens, users } = await setUp();
    const { agent, token } = await service.create(projectId, { name: 'Bot', color: undefined, emoji: undefined }, 'tab-1');
    expect(agent).toMatchObject({ name: 'Bot', kind: 'agent', role: 'member' });
    expect(token).toMatch(/^svc_/);
    expect(tokens.tokens).toEqual([expect.objectContaining({ agentId: agent?.id, digest: digestOf(token), prefix: token.slice(0, 8) })]);
    expect((await users.findById(agent!.id))?.projectId).toBe(projectId);
    expect(uow.events).toEqual([ring(projectId)]);
  });

  it('changes a profile with a ring, and a change to nothing writes nothing', async () => {
    const { service, agent, projectId, uow } = await setUp();
    const bot = await agent(projectId);
    expect((await service.update(projectId, bot.id, { name: 'Robo' }, 'tab-1')).agent).toMatchObject({ name: 'Robo' });
    expect(uow.events).toEqual([ring(projectId)]);
    uow.clear();
    await service.update(projectId, bot.id, { name: 'Robo' }, 'tab-1');
    expect(uow.writes).toEqual([]);
  });

  it('finds only an agent of this project (the gate before a change is read)', async () => {
    const { service, agent, person, project, owner, projectId } = await setUp();
    const elsewhere = await agent((await project(owner, 'Other')).id);
    expect(await refusalCode(service.assertFound(projectId, elsewhere.id))).toBe('agent.not_found');
    expect(await refusalCode(service.assertFound(projectId, person('Ann').id))).toBe('agent.not_found');
    expect(await refusalCode(service.assertFound(projectId, MISSING))).toBe('agent.not_found');
    expect(await refusalCode(service.assertFound(projectId, 'nope'))).toBe('id.invalid');
    await expect(service.assertFound(projectId, (await agent(projectId)).id)).resolves.toBeUndefined();
  });

  it('removes an agent with its tokens and rings; its user stays', async () => {
    const { service, agent, projectId, uow, tokens, members, users } = await setUp();
    const bot = await agent(projectId);
    await service.newToken(projectId, bot.id);
    await service.remove(projectId, bot.id, null);
    expect(tokens.tokens).toEqual([]);
    expect(await members.find(projectId, bot.id)).toBeNull();
    expect(await users.findById(bot.id)).not.toBeNull();
    expect(uow.events).toEqual([ring(projectId, null)]);
  });

  it('revokes a token of the project, and refuses one it does not have', async () => {
    const { service, agent, projectId, tokens } = await setUp();
    const bot = await agent(projectId);
    const { id } = await service.newToken(projectId, bot.id);
    expect((await service.list(projectId)).map((t) => t.id)).toEqual([id]);
    await service.revoke(projectId, id);
    expect(tokens.tokens).toEqual([]);
    expect(await refusalCode(service.revoke(projectId, id))).toBe('token.not_found');
  });
});
