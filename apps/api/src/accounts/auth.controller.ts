import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { Person, Public } from '../auth/access.decorator';
import { Auth, AuthContext, BySession, SessionAuth } from '../auth/auth-context';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../auth/cookies';
import { clientAddress } from '../http/client-address';
import { AccountsService } from './accounts.service';
import { RecordsSecurity, securityAlso, securitySubject } from './security-event.interceptor';
import { FORGOT_MESSAGE, ForgotService } from './forgot.service';
import { MailOnCheck } from './mail-on.check';
import { PasswordChangeCheck } from './password-change.check';
import { SignupOpenCheck } from './signup-open.check';
import { Throttled } from './throttle.interceptor';
import { ChangePasswordBody, ForgotBody, LoginBody, RegisterBody, ResetBody, UpdateMeBody } from './accounts.dto';

/** People only: every route here ignores a bearer token. */
@Controller('auth')
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly forgotten: ForgotService,
    private readonly config: AppConfig,
  ) {}

  /** Closed sign-up answers before the body is read, even an unreadable one; then the throttle. */
  @Public()
  @Post('register')
  @HttpCode(201)
  @RecordsSecurity('signed_in')
  @Throttled('register')
  // Below the throttle so that it runs first: decorators apply from the bottom up.
  @UseInterceptors(SignupOpenCheck)
  async register(@Body() body: RegisterBody, @Res({ passthrough: true }) reply: FastifyReply) {
    const signedIn = await this.accounts.register(body);
    setSessionCookie(reply, signedIn.sessionId, this.config.production);
    return { user: signedIn.user };
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  @RecordsSecurity('signed_in', { failed: 'sign_in_failed' })
  @Throttled('login')
  async login(@Body() body: LoginBody, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const signedIn = await this.accounts.login(body);
    if (signedIn.recoveryCodeUsed) securityAlso(req, 'recovery_code_used');
    setSessionCookie(reply, signedIn.sessionId, this.config.production);
    return { user: signedIn.user };
  }

  @Public()
  @Post('logout')
  @HttpCode(200)
  @RecordsSecurity('signed_out', { sessionBefore: true })
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.accounts.logout(readSessionCookie(req));
    clearSessionCookie(reply, this.config.production);
    return { ok: true };
  }

  @Public()
  @Post('reset')
  @HttpCode(200)
  @RecordsSecurity('password_reset')
  // Only dead links count ("ten dead links from this address"); a short password does not.
  @Throttled('reset', { counts: (error) => error.code === 'reset.dead_link' })
  async reset(@Body() body: ResetBody, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const signedIn = await this.accounts.reset(body);
    securitySubject(req, signedIn.user.id);
    setSessionCookie(reply, signedIn.sessionId, this.config.production);
    return { ok: true };
  }

  /** The same answer for every email; the lookup and the mail start once it has gone out. */
  @Public()
  @Post('forgot')
  @HttpCode(200)
  @UseInterceptors(MailOnCheck)
  async forgot(@Body() body: ForgotBody, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const mailLinks = await this.forgotten.request(body, clientAddress(req));
    reply.raw.once('close', mailLinks);
    return { ok: true, message: FORGOT_MESSAGE };
  }

  /** What a sign-in screen offers: sign-up, single sign-on's button, a reset link by mail. */
  @Public()
  @Get('config')
  signInOptions() {
    const oidc = this.config.oidc;
    return { signup: this.config.SERVICE_SIGNUP, oidc: oidc ? { name: oidc.name } : null, mail: this.forgotten.available };
  }

  @Person()
  @Get('me')
  async me(@Auth() auth: AuthContext) {
    return { user: await this.accounts.me(auth) };
  }

  @Person()
  @Patch('me')
  async updateMe(@Auth() auth: AuthContext, @Body() body: UpdateMeBody) {
    return { user: await this.accounts.updateMe(auth, body) };
  }

  @Person()
  @Post('password')
  @HttpCode(200)
  @RecordsSecurity('password_changed')
  @UseInterceptors(PasswordChangeCheck)
  async password(@BySession() auth: SessionAuth, @Body() body: ChangePasswordBody) {
    await this.accounts.changePassword(auth, body);
    return { ok: true };
  }

  @Person()
  @Get('sessions')
  async sessions(@BySession() auth: SessionAuth) {
    return { others: await this.accounts.otherSessions(auth) };
  }

  @Person()
  @Delete('sessions')
  @RecordsSecurity('sessions_ended')
  async endSessions(@BySession() auth: SessionAuth) {
    await this.accounts.endOtherSessions(auth);
    return { ok: true };
  }
}
