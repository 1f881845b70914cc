import { Module } from '@nestjs/common';
import { HealthService } from './health.service';
import { MetricsService } from './metrics.service';
import { SystemController } from './system.controller';

/**
 * The service itself: version, health and metrics. `DatabaseLifecycle` (the pools' closing) is in
 * the root module; what makes it come after every feature's work is not the module but the hook:
 * see database.lifecycle.ts.
 */
@Module({
  controllers: [SystemController],
  providers: [HealthService, MetricsService],
})
export class SystemModule {}
