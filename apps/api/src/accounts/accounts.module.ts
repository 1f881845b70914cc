import { Module } from '@nestjs/common';
import { SingleSignOn } from '@board/accounts';
import { OpenIdSignOn } from '@board/platform';
import { AppConfig } from '../config/app-config';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { ForgotService } from './forgot.service';
import { OidcController } from './oidc.controller';
import { OidcService } from './oidc.service';
import { PasswordChangeCheck } from './password-change.check';
import { SignOnOff } from './sign-on-off';
import { SecurityEventInterceptor } from './security-event.interceptor';
import { SecurityLogController } from './security-log.controller';
import { SecurityLogService } from './security-log.service';
import { ThrottleInterceptor } from './throttle.interceptor';
import { TotpController } from './totp.controller';
import { TotpService } from './totp.service';

/** The OpenID provider of the configuration, or none (single sign-on is off). */
const singleSignOn = (config: AppConfig): SingleSignOn => {
  const settings = config.oidc;
  return settings ? new OpenIdSignOn({ issuer: settings.issuer, clientId: settings.clientId, clientSecret: settings.clientSecret }) : new SignOnOff();
};

/** People's accounts: register, sign in and out (single sign-on too), sessions, profile, password and reset links, the security log. */
@Module({
  imports: [MailModule, AuthModule],
  controllers: [AuthController, OidcController, SecurityLogController, TotpController],
  providers: [
    AccountsService,
    ForgotService,
    OidcService,
    PasswordChangeCheck,
    SecurityLogService,
    SecurityEventInterceptor,
    ThrottleInterceptor,
    TotpService,
    { provide: SingleSignOn, useFactory: singleSignOn, inject: [AppConfig] },
  ],
})
export class AccountsModule {}
