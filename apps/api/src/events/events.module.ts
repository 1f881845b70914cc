import { Module } from '@nestjs/common';
import { PgNotificationListener } from '@board/persistence';
import { ActivityController } from './activity.controller';
import { ActivityQueries } from './activity.queries';
import { PresenceService } from './presence.service';
import { StreamController } from './stream.controller';
import { StreamService } from './stream.service';
import { StreamAccessWatch } from './stream-access.watch';

@Module({
  controllers: [StreamController, ActivityController],
  providers: [PgNotificationListener, StreamService, StreamAccessWatch, PresenceService, ActivityQueries],
  exports: [PgNotificationListener],
})
export class EventsModule {}
