import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@board/kernel';
import { AppConfig } from '../config/app-config';
import { Public } from '../auth/access.decorator';
import { clearSignOnCookie, readCookie, setSessionCookie, setSignOnCookie, SIGN_ON_COOKIE } from '../auth/cookies';
import { describeError } from '../http/error-catalog';
import { OidcService } from './oidc.service';
import { SecurityLogService } from './security-log.service';

/**
 * Single sign-on (extensions.md § 3.2). A browser follows both routes, so both answer a redirect,
 * a refusal too: to `/?signin_error=<sentence>`, which the sign-in screen shows.
 */
@Controller('auth/oidc')
export class OidcController {
  constructor(
    private readonly oidc: OidcService,
    private readonly log: SecurityLogService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Get()
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    try {
      const { url, sealed, seconds } = await this.oidc.start(this.base(request));
      setSignOnCookie(reply, sealed, seconds, this.config.production);
      redirect(reply, url);
    } catch (error) {
      this.refuse(reply, error);
    }
  }

  @Public()
  @Get('callback')
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    // The checks work once, whatever comes of them.
    clearSignOnCookie(reply, this.config.production);
    try {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const done = await this.oidc.finish(this.base(request), query, readCookie(request, SIGN_ON_COOKIE));
      if (done.linked) await this.log.note(done.userId, 'oidc_linked', request);
      await this.log.note(done.userId, 'signed_in', request);
      setSessionCookie(reply, done.sessionId, this.config.production);
      redirect(reply, '/');
    } catch (error) {
      this.refuse(reply, error);
    }
  }

  /**
   * The board's address, which the provider sends the browser back under: `SERVICE_URL`, else
   * the address this request came to (a provider only sends back to a redirect URI registered
   * with it, so a forged Host cannot send a code elsewhere).
   */
  private base(request: FastifyRequest): string {
    return this.config.SERVICE_URL?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
  }

  /** A refusal's sentence for the sign-in screen; anything else is a failure of ours (500, logged). */
  private refuse(reply: FastifyReply, error: unknown): void {
    if (!(error instanceof DomainError)) throw error;
    redirect(reply, `/?signin_error=${encodeURIComponent(describeError(error.code, error.params).message)}`);
  }
}

function redirect(reply: FastifyReply, location: string): void {
  void reply.status(302).header('location', location).send();
}
