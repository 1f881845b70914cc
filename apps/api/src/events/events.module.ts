import { Module } from '@nestjs/common';
import { ActivityFeedQuery, PgNotificationListener, PresencePublisher } from '@board/persistence';
import { ActivityController } from './activity.controller';
import { PresenceService } from './presence.service';
import { StreamController } from './stream.controller';
import { StreamService } from './stream.service';
import { StreamAccessWatch } from './stream-access.watch';

@Module({
  controllers: [StreamController, ActivityController],
  providers: [PgNotificationListener, StreamService, StreamAccessWatch, PresenceService, PresencePublisher, ActivityFeedQuery],
  exports: [PgNotificationListener],
})
export class EventsModule {}
