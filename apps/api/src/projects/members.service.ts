import { Injectable } from '@nestjs/common';
import {
  digestOf, newSecret, normalizeEmail, RESET_LIFETIME_MS, RESET_TOKEN_PREFIX, ResetTokenRepository, resetUrl, UserRepository,
} from '@board/accounts';
import { Clock, fail, feedLine, notice, parseId, silent, UnitOfWork, withEvents, WriteEvent } from '@board/kernel';
import { ProjectQuery } from '@board/persistence';
import {
  AgentTokenRepository, assertCanChangeRole, assertCanRemove, assertInviteMailAllowed, InviteMailRepository, MemberRepository, Membership,
} from '@board/projects';
import { AppConfig } from '../config/app-config';
import { ProjectAuthContext } from '../auth/auth-context';
import { InviteMailService } from './invite-mail.service';
import { AddMemberBody, ChangeRoleBody } from './members.dto';

@Injectable()
export class MembersService {
  constructor(
    private readonly members: MemberRepository,
    private readonly users: UserRepository,
    private readonly tokens: AgentTokenRepository,
    private readonly resets: ResetTokenRepository,
    private readonly queries: ProjectQuery,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly inviteMails: InviteMailRepository,
    private readonly inviteMail: InviteMailService,
  ) {}

  /**
   * A member when an account has the email, else an invite that turns into one at sign-up. An
   * invite mails its person a sign-up link when mail is on — at most one per address and project
   * a day, at most 50 a day per inviter (counted in the write, so a refusal writes nothing) — and
   * says whether the relay took it (`mailed`) and the link to hand over (`signupUrl`). The mail
   * goes after the commit; the answer waits for it a bounded time and never fails for it.
   */
  async add(projectId: string, { email, role }: AddMemberBody, clientId: string | null, inviter: { id: string; name: string }) {
    const user = await this.users.findByEmail(email);
    const added = await this.uow.write(async () => {
      if (user && !user.isAgent) {
        await this.members.add(projectId, user.id, role);
        return withEvents({ member: await this.queries.member(projectId, user.id) }, this.ring(projectId, clientId));
      }
      const take = this.inviteMail.canMail
        ? await this.inviteMails.take({ projectId, email, senderId: inviter.id, now: this.clock.now() })
        : null;
      if (take) assertInviteMailAllowed(take);
      const invite = await this.members.addInvite(projectId, email, role);
      return withEvents({ invite, mail: take?.kind === 'send' }, this.ring(projectId, clientId));
    });
    if (!('invite' in added)) return added;
    const mailed = added.mail ? await this.inviteMail.send(projectId, email, inviter.name) : false;
    return { invite: { ...added.invite, mailed, signupUrl: this.inviteMail.signupUrl(email) } };
  }

  /** The member id of the path is checked before the body is read (`MemberPathCheck`, the contract's order). */
  async changeRole(auth: ProjectAuthContext, projectId: string, rawUserId: string, { role }: ChangeRoleBody, clientId: string | null = null) {
    const userId = parseId(rawUserId, 'member');
    await this.uow.write(
      async () => {
        const target = await this.target(projectId, userId);
        assertCanChangeRole(auth.project.role, target);
        if (target.role === role) return silent(undefined);
        await this.members.setRole(projectId, userId, role);
        return withEvents(undefined, this.ring(projectId, clientId));
      },
      { lockProject: projectId },
    );
    return { member: await this.queries.member(projectId, userId) };
  }

  /** Managers remove others; anybody may leave. An agent removed this way loses its tokens. */
  async remove(auth: ProjectAuthContext, projectId: string, rawUserId: string, clientId: string | null = null): Promise<void> {
    const userId = parseId(rawUserId, 'member');
    await this.uow.write(
      async () => {
        const target = await this.target(projectId, userId);
        assertCanRemove({ userId: auth.caller.id, role: auth.project.role }, target);
        if (target.kind === 'agent') await this.tokens.deleteForAgent(projectId, userId);
        await this.members.remove(projectId, userId);
        return withEvents(undefined, this.ring(projectId, clientId));
      },
      { lockProject: projectId },
    );
  }

  async removeInvite(projectId: string, email: string, clientId: string | null = null): Promise<void> {
    await this.uow.write(async () => {
      const removed = await this.members.removeInvite(projectId, normalizeEmail(email));
      return withEvents(undefined, removed && this.ring(projectId, clientId));
    });
  }

  /** A one-time link (24 hours) for a person of the project; a newer one voids the older. */
  async resetLink(auth: ProjectAuthContext, projectId: string, rawUserId: string) {
    const userId = parseId(rawUserId, 'member');
    const token = newSecret(RESET_TOKEN_PREFIX);
    const expiresAt = new Date(this.clock.now().getTime() + RESET_LIFETIME_MS);
    await this.uow.write(async () => {
      const target = await this.target(projectId, userId);
      if (target.kind !== 'human') fail('member.reset_agent');
      // A link signs its holder in as that person everywhere: an admin may not make one for the
      // owner or another admin, or an admin could take over the accounts above or beside them.
      if (target.role !== 'member' && auth.project.role !== 'owner' && target.userId !== auth.caller.id) {
        fail('gate.owner', { what: 'make a reset link for an admin or the owner' });
      }
      // A link hands its holder the whole account: never one that reaches into projects the caller
      // does not manage (an owner can add any existing account, so membership alone proves nothing).
      if (await this.members.inProjectsBeyond(userId, auth.caller.id)) fail('member.reset_beyond');
      const user = await this.users.findById(userId);
      if (!user) fail('member.not_found');
      await this.resets.replace(userId, digestOf(token), expiresAt, auth.caller.id);
      // A feed line, no stream ring: nothing on the board or the member list changed.
      return withEvents(
        undefined,
        feedLine({
          projectId,
          taskId: null,
          actorId: auth.caller.id,
          kind: 'reset',
          data: { forUserId: userId, forName: user.name },
        }),
      );
    });
    return { token, url: this.config.SERVICE_URL ? resetUrl(this.config.SERVICE_URL, token) : null, expiresAt };
  }

  private ring(projectId: string, clientId: string | null): WriteEvent {
    return notice({ projectId, scope: 'project', clientId });
  }

  private async target(projectId: string, userId: string): Promise<Membership> {
    const target = await this.members.find(projectId, userId);
    if (!target) fail('member.not_found');
    return target;
  }
}
