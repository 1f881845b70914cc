import { Module } from '@nestjs/common';
import { HealthService } from './health.service';
import { MetricsService } from './metrics.service';
import { SystemController } from './system.controller';

/**
 * The service itself: version, health and metrics. `DatabaseLifecycle` stays in the root module on
 * purpose: Nest runs the root module's shutdown hooks last, so the pool closes after every
 * feature has stopped its work.
 */
@Module({
  controllers: [SystemController],
  providers: [HealthService, MetricsService],
})
export class SystemModule {}
