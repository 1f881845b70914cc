import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { ForgotService } from './forgot.service';
import { SecurityEventInterceptor } from './security-event.interceptor';
import { SecurityLogController } from './security-log.controller';
import { SecurityLogService } from './security-log.service';
import { ThrottleInterceptor } from './throttle.interceptor';
import { TotpController } from './totp.controller';
import { TotpService } from './totp.service';

/** People's accounts: register, sign in and out, sessions, profile, password and reset links, the security log. */
@Module({
  imports: [MailModule, AuthModule],
  controllers: [AuthController, SecurityLogController, TotpController],
  providers: [AccountsService, ForgotService, SecurityLogService, SecurityEventInterceptor, ThrottleInterceptor, TotpService],
})
export class AccountsModule {}
