import { digestOf } from '@board/accounts';
import { AppConfig } from '../config/app-config';
import { ProjectAuthContext } from '../auth/auth-context';
import { BackgroundMail } from '../mail/background-mail';
import { InMemoryInviteMailRepository } from '../../../../test/support/in-memory/invite-mail-repository';
import { RecordingMailer } from '../../../../test/support/in-memory/mailer';
import { projectWorld } from '../../../../test/support/in-memory/project-world';
import { InMemoryResetTokenRepository } from '../../../../test/support/in-memory/reset-token-repository';
import { refusalCode } from '../../../../test/support/refusal-code';
import { InviteMailService } from './invite-mail.service';
import { MembersService } from './members.service';

// The read models' library (typeorm, pg) stays unloaded: the spec hands the service typed fakes.
jest.mock('@board/persistence', () => ({}));

async function setUp(options: { mail?: boolean } = {}) {
  const world = projectWorld();
  const resets = new InMemoryResetTokenRepository();
  const inviteMails = new InMemoryInviteMailRepository();
  const mailer = new RecordingMailer(options.mail ?? true);
  const config = Object.assign(new AppConfig(), { SERVICE_URL: 'https://board.example.com' });
  const inviteMail = new InviteMailService(mailer, world.projects, new BackgroundMail(), config);
  const service = new MembersService(world.members, world.users, world.tokens, resets, world.query, world.uow, world.clock, config, inviteMails, inviteMail);
  const owner = world.person('Olive');
  const project = await world.project(owner);
  const as = (userId: string, role: 'owner' | 'admin' | 'member') => ({ caller: { id: userId }, project: { id: project.id, role } }) as unknown as ProjectAuthContext;
  return { ...world, service, resets, inviteMails, mailer, owner, projectId: project.id, as };
}

const ring = (projectId: string) => ({ type: 'notice', change: { projectId, scope: 'project', clientId: 'tab-1' } });

describe('MembersService', () => {
  describe('add', () => {
    it('adds the account of the email as a member, ringing the project', async () => {
      const { service, person, projectId, uow, owner } = await setUp();
      const ann = person('Ann');
      const added = await service.add(projectId, { email: 'ann@example.com', role: 'admin' }, 'tab-1', { id: owner.id, name: 'Olive' });
      expect(added).toEqual({ member: expect.objectContaining({ id: ann.id, role: 'admin' }) });
      expect(uow.events).toEqual([ring(projectId)]);
    });

    it('invites an email without an account and mails its sign-up link once the write is done', async () => {
      const { service, projectId, uow, owner, mailer, members, inviteMails } = await setUp();
      const added = await service.add(projectId, { email: 'new@example.com', role: 'member' }, 'tab-1', { id: owner.id, name: 'Olive' });
      expect(added).toEqual({ invite: expect.objectContaining({ email: 'new@example.com', mailed: true, signupUrl: expect.stringContaining('new%40example.com') }) });
      expect(members.invites.map((i) => i.email)).toEqual(['new@example.com']);
      expect(inviteMails.asked).toEqual([{ projectId, email: 'new@example.com', senderId: owner.id }]);
      expect(mailer.sent.map((m) => m.to)).toEqual(['new@example.com']);
      expect(uow.events).toEqual([ring(projectId)]);
    });

    it('refuses an invite past the inviter\'s daily mails, writing nothing', async () => {
      const { service, projectId, uow, owner, members, inviteMails } = await setUp();
      inviteMails.answers.push({ kind: 'limit', retryAfterSeconds: 60 });
      expect(await refusalCode(service.add(projectId, { email: 'new@example.com', role: 'member' }, null, { id: owner.id, name: 'Olive' }))).toBe('invite.too_many');
      expect(members.invites).toEqual([]);
      expect(uow.events).toEqual([]);
    });

    it('invites without asking for a mail when mail is off', async () => {
      const { service, projectId, owner, inviteMails } = await setUp({ mail: false });
      const added = await service.add(projectId, { email: 'new@example.com', role: 'member' }, null, { id: owner.id, name: 'Olive' });
      expect(added).toEqual({ invite: expect.objectContaining({ mailed: false }) });
      expect(inviteMails.asked).toEqual([]);
    });
  });

  describe('changeRole', () => {
    it('changes a role under the project lock and rings; the same role again is silent', async () => {
      const { service, person, join, projectId, owner, as, uow } = await setUp();
      const ann = person('Ann');
      await join(projectId, ann, 'member');
      expect(await service.changeRole(as(owner.id, 'owner'), projectId, ann.id, { role: 'admin' }, 'tab-1')).toEqual({ member: expect.objectContaining({ role: 'admin' }) });
      expect(uow.writes.map((w) => w.options)).toEqual([{ lockProject: projectId }]);
      expect(uow.events).toEqual([ring(projectId)]);
      uow.clear();
      await service.changeRole(as(owner.id, 'owner'), projectId, ann.id, { role: 'admin' }, 'tab-1');
      expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
    });

    it("refuses the owner's role, an admin's role changed by an admin, and somebody not there", async () => {
      const { service, person, join, projectId, owner, as, uow } = await setUp();
      const [ann, bea] = [person('Ann'), person('Bea')];
      await join(projectId, ann, 'admin');
      await join(projectId, bea, 'admin');
      expect(await refusalCode(service.changeRole(as(ann.id, 'admin'), projectId, owner.id, { role: 'member' }))).toBe('member.owner_role');
      expect(await refusalCode(service.changeRole(as(ann.id, 'admin'), projectId, bea.id, { role: 'member' }))).toBe('gate.owner');
      expect(await refusalCode(service.changeRole(as(owner.id, 'owner'), projectId, '5b1e7c52-4f4e-4a8e-9c36-0d3f3c0f0a11', { role: 'admin' }))).toBe('member.not_found');
      expect(await refusalCode(service.changeRole(as(owner.id, 'owner'), projectId, 'not-an-id', { role: 'admin' }))).toBe('id.invalid');
      expect(uow.events).toEqual([]);
    });
  });

  describe('remove', () => {
    it("removes an agent with its tokens, and refuses the owner's leaving", async () => {
      const { service, agent, projectId, owner, as, uow, tokens, members } = await setUp();
      const bot = await agent(projectId);
      await tokens.insert({ id: 'token-1', projectId, agentId: bot.id, digest: 'd', prefix: 'svc_abcd' });
      await service.remove(as(owner.id, 'owner'), projectId, bot.id, 'tab-1');
      expect(tokens.tokens).toEqual([]);
      expect(await members.find(projectId, bot.id)).toBeNull();
      expect(uow.events).toEqual([ring(projectId)]);
      expect(await refusalCode(service.remove(as(owner.id, 'owner'), projectId, owner.id))).toBe('member.owner_cannot_leave');
    });

    it('lets a member leave but not remove another', async () => {
      const { service, person, join, projectId, as } = await setUp();
      const [ann, bea] = [person('Ann'), person('Bea')];
      await join(projectId, ann, 'member');
      await join(projectId, bea, 'member');
      expect(await refusalCode(service.remove(as(ann.id, 'member'), projectId, bea.id))).toBe('gate.admin');
      await expect(service.remove(as(ann.id, 'member'), projectId, ann.id)).resolves.toBeUndefined();
    });
  });

  it('rings for a removed invite only when there was one', async () => {
    const { service, members, projectId, uow } = await setUp();
    await members.addInvite(projectId, 'new@example.com', 'member');
    await service.removeInvite(projectId, 'NEW@example.com', 'tab-1');
    expect(uow.events).toEqual([ring(projectId)]);
    uow.clear();
    await service.removeInvite(projectId, 'new@example.com', 'tab-1');
    expect(uow.writes.map((w) => [w.landed, w.events])).toEqual([[true, []]]);
  });

  describe('resetLink', () => {
    it('stores a link for a person and writes a reset line, with no ring', async () => {
      const { service, person, join, projectId, owner, as, uow, resets } = await setUp();
      const ann = person('Ann');
      await join(projectId, ann, 'member');
      const link = await service.resetLink(as(owner.id, 'owner'), projectId, ann.id);
      expect(link.url).toContain(link.token);
      expect(resets.links.get(ann.id)).toMatchObject({ digest: digestOf(link.token), madeBy: owner.id });
      expect(uow.events).toEqual([
        { type: 'line', line: { projectId, taskId: null, actorId: owner.id, kind: 'reset', data: { forUserId: ann.id, forName: 'Ann' } } },
      ]);
    });

    it('refuses an agent, an admin asked by an admin, and a person in projects beyond the caller', async () => {
      const { service, person, join, agent, project, projectId, owner, as, uow } = await setUp();
      const bot = await agent(projectId);
      const [ann, bea, cy] = [person('Ann'), person('Bea'), person('Cy')];
      await join(projectId, ann, 'admin');
      await join(projectId, bea, 'admin');
      await join(projectId, cy, 'member');
      await join((await project(cy, 'Elsewhere')).id, owner, 'member');
      expect(await refusalCode(service.resetLink(as(owner.id, 'owner'), projectId, bot.id))).toBe('member.reset_agent');
      expect(await refusalCode(service.resetLink(as(ann.id, 'admin'), projectId, bea.id))).toBe('gate.owner');
      expect(await refusalCode(service.resetLink(as(owner.id, 'owner'), projectId, cy.id))).toBe('member.reset_beyond');
      expect(uow.events).toEqual([]);
    });
  });
});
