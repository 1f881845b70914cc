import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { cutUserAgent, SECURITY_EVENTS_SHOWN, SecurityKind, SecurityLog, signInEmail, UserRepository } from '@board/accounts';
import { Clock, silent, UnitOfWork } from '@board/kernel';
import { clientAddress } from '../http/client-address';

export interface SecurityEventView {
  at: string;
  kind: SecurityKind;
  ip: string;
  userAgent: string;
}

/** A person's security log: what happened to their account, from where (extensions.md § 3.3). */
@Injectable()
export class SecurityLogService {
  constructor(
    private readonly events: SecurityLog,
    private readonly users: UserRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async note(userId: string, kind: SecurityKind, request: FastifyRequest): Promise<void> {
    const event = { at: this.clock.now(), kind, ip: clientAddress(request), userAgent: cutUserAgent(request.headers['user-agent']) };
    // Nobody else is told of it: no feed line, no notice.
    await this.uow.write(async () => {
      await this.events.append(userId, event);
      return silent(undefined);
    });
  }

  /** A refused sign-in, in the log of every person account the email names (none for an unknown email). */
  async noteFailedSignIn(email: unknown, request: FastifyRequest): Promise<void> {
    const address = signInEmail(email);
    if (!address) return;
    for (const user of await this.users.findAllByEmail(address)) {
      if (!user.isAgent) await this.note(user.id, 'sign_in_failed', request);
    }
  }

  async recent(userId: string): Promise<{ events: SecurityEventView[] }> {
    const events = await this.events.recent(userId, SECURITY_EVENTS_SHOWN);
    return { events: events.map((e) => ({ at: e.at.toISOString(), kind: e.kind, ip: e.ip, userAgent: e.userAgent })) };
  }
}
