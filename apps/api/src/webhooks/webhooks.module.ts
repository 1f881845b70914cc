import { Module } from '@nestjs/common';
import { PgWebhookRepository } from '@board/persistence';
import { HttpWebhookSender } from '@board/platform';
import { WebhookRepository, WebhookSender } from '@board/webhooks';
import { AppConfig } from '../config/app-config';
import { EventsModule } from '../events/events.module';
import { DeliveryWorker } from './delivery.worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [EventsModule],
  controllers: [WebhooksController],
  providers: [
    { provide: WebhookRepository, useClass: PgWebhookRepository },
    // Outgoing HTTP through its port (tests may swap the sender through Nest's overrideProvider).
    { provide: WebhookSender, useFactory: (config: AppConfig) => new HttpWebhookSender({ allow: config.SERVICE_WEBHOOK_ALLOW }), inject: [AppConfig] },
    WebhooksService,
    DeliveryWorker,
  ],
  exports: [DeliveryWorker],
})
export class WebhooksModule {}
