import { Module } from '@nestjs/common';
import { BackgroundMail } from './background-mail';

/** Mail sent after the answer (reset links, invites); a shutdown waits for what is on its way. */
@Module({
  providers: [BackgroundMail],
  exports: [BackgroundMail],
})
export class MailModule {}
