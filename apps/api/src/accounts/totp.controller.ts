import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Person } from '../auth/access.decorator';
import { BySession, SessionAuth } from '../auth/auth-context';
import { TotpDisableBody, TotpEnableBody } from './accounts.dto';
import { RecordsSecurity } from './security-event.interceptor';
import { TotpService } from './totp.service';

/** Two-step sign-in: people only, by their session (a bearer token is ignored on the auth routes). */
@Controller('auth/totp')
export class TotpController {
  constructor(private readonly totp: TotpService) {}

  @Person()
  @Post('setup')
  @HttpCode(200)
  setup(@BySession() auth: SessionAuth) {
    return this.totp.setup(auth.caller.id, auth.caller.email ?? auth.caller.name);
  }

  @Person()
  @Post('enable')
  @HttpCode(200)
  @RecordsSecurity('totp_on')
  enable(@BySession() auth: SessionAuth, @Body() body: TotpEnableBody) {
    return this.totp.enable(auth.caller.id, body.code);
  }

  @Person()
  @Post('disable')
  @HttpCode(200)
  @RecordsSecurity('totp_off')
  async disable(@BySession() auth: SessionAuth, @Body() body: TotpDisableBody) {
    await this.totp.disable(auth.caller.id, body.password, body.code);
    return { ok: true };
  }
}
