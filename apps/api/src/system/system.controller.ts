import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public, Scraper } from '../auth/access.decorator';
import { HealthService } from './health.service';
import { MetricsService } from './metrics.service';
import { SERVICE_VERSION } from './version';

@Controller()
export class SystemController {
  constructor(
    private readonly checks: HealthService,
    private readonly readings: MetricsService,
  ) {}

  @Public()
  @Get('version')
  version() {
    return { version: SERVICE_VERSION, api: 1 };
  }

  /** 200 `{ ok: true }` while the database answers within two seconds, else 503 `{ ok: false }`. */
  @Public()
  @Get('health')
  @HttpCode(200)
  async health(@Res({ passthrough: true }) reply: FastifyReply) {
    const ok = await this.checks.ok();
    if (!ok) reply.status(503);
    return { ok };
  }

  /** The Prometheus text format, for a scraper with SERVICE_METRICS_TOKEN (docs/operating.md › Metrics). */
  @Scraper()
  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply) {
    const { contentType, text } = await this.readings.read();
    reply.header('content-type', contentType);
    return text;
  }
}
