import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Human } from '../auth/access.decorator';
import { BySession, SessionAuth } from '../auth/auth-context';
import { sendEvents } from '../events/send-events';
import { MarkReadBody, NotificationsQuery } from './notifications.dto';
import { NotificationsService } from './notifications.service';

/** A person's own notifications (extensions.md § 2): people only, each sees only theirs. */
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Human()
  @Get()
  list(@BySession() auth: SessionAuth, @Query() query: NotificationsQuery) {
    return this.notifications.list(auth.caller.id, query);
  }

  @Human()
  @Post('read')
  @HttpCode(200)
  markRead(@BySession() auth: SessionAuth, @Body() body: MarkReadBody) {
    return this.notifications.markRead(auth.caller.id, body);
  }

  /** Server-sent events of the person's new notifications, from every instance. */
  @Human()
  @Get('stream')
  stream(@BySession() auth: SessionAuth, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    // The guard checked the session at most this long ago (the request's start).
    const checkedAt = Date.now() - reply.elapsedTime - 1;
    sendEvents(request, reply, this.notifications.stream(auth.caller.id, auth.sessionDigest, auth.sessionExpiresAt, checkedAt));
  }
}
