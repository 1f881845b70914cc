import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HumanMember, Member } from '../auth/access.decorator';
import { Auth, AuthContext, credentialDigest, ProjectCaller, ProjectCallerOf } from '../auth/auth-context';
import { PresenceBody } from './events.dto';
import { PresenceService } from './presence.service';
import { sendEvents } from './send-events';
import { StreamService } from './stream.service';

@Controller('projects/:projectId')
export class StreamController {
  constructor(
    private readonly streams: StreamService,
    private readonly presence: PresenceService,
  ) {}

  /** Server-sent events for one project; any member, agents too. */
  @Member()
  @Get('stream')
  stream(@ProjectCallerOf() caller: ProjectCaller, @Auth() auth: AuthContext, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const credential = { projectId: caller.projectId, via: auth.via, digest: credentialDigest(auth) };
    // The guard checked the credential at most this long ago (the request's start).
    const checkedAt = Date.now() - reply.elapsedTime - 1;
    sendEvents(request, reply, this.streams.open(credential, caller.userId, auth.sessionExpiresAt ?? null, checkedAt));
  }

  /** Which task a person's tab has open; broadcast to every instance, never a change. */
  @HumanMember()
  @Post('presence')
  @HttpCode(200)
  async announce(@ProjectCallerOf() caller: ProjectCaller, @Body() body: PresenceBody) {
    await this.presence.announce(caller, body);
    return { ok: true };
  }
}
