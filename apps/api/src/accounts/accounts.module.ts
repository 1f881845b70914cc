import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { AccountsService } from './accounts.service';
import { AuthController } from './auth.controller';
import { ForgotService } from './forgot.service';
import { ThrottleInterceptor } from './throttle.interceptor';

/** People's accounts: register, sign in and out, sessions, profile, password and reset links. */
@Module({
  imports: [MailModule],
  controllers: [AuthController],
  providers: [AccountsService, ForgotService, ThrottleInterceptor],
})
export class AccountsModule {}
