import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { NotificationMailWorker } from './notification-mail.worker';
import { NotificationRetentionSweeper } from './notification-retention.sweeper';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';

/** Notifications for people: the inbox, the personal stream, their mail and their retention. */
@Module({
  imports: [EventsModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, NotificationMailWorker, NotificationRetentionSweeper],
  exports: [NotificationMailWorker, NotificationRetentionSweeper],
})
export class NotificationsModule {}
