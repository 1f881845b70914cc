import { Module } from '@nestjs/common';
import { NoticeFeed, PresencePublisher } from '@board/kernel';
import { ActivityFeedQuery, PgNotificationListener, PgPresencePublisher } from '@board/persistence';
import { ActivityController } from './activity.controller';
import { FeedService } from './feed.service';
import { PresenceService } from './presence.service';
import { StreamController } from './stream.controller';
import { StreamService } from './stream.service';
import { StreamAccessWatch } from './stream-access.watch';
import { NoticeCountListener } from './notice-count.listener';

@Module({
  controllers: [StreamController, ActivityController],
  providers: [
    // One listening connection per instance, known by its port to the app (and by its class to the test that cuts it).
    PgNotificationListener,
    { provide: NoticeFeed, useExisting: PgNotificationListener },
    { provide: PresencePublisher, useClass: PgPresencePublisher },
    StreamService,
    StreamAccessWatch,
    NoticeCountListener,
    PresenceService,
    ActivityFeedQuery,
    FeedService,
  ],
  exports: [NoticeFeed, StreamService],
})
export class EventsModule {}
