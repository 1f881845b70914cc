import { Injectable } from '@nestjs/common';
import { Exposition, Metrics } from '@board/kernel';
import { DeliveryBacklogQuery, PoolUseQuery } from '@board/persistence';
import { within } from './within';

/** The webhook outbox's statement limit at scrape time: a scrape must never weigh on the database. */
export const BACKLOG_STATEMENT_MS = 1000;
/** How long a scrape waits for that read (a connection included) before it answers without it. */
const BACKLOG_WAIT_MS = 2000;

/** What `GET /api/metrics` answers: the counters kept as things happen, and the state read now. */
@Injectable()
export class MetricsService {
  constructor(
    private readonly metrics: Metrics,
    private readonly pools: PoolUseQuery,
    private readonly backlog: DeliveryBacklogQuery,
  ) {}

  async read(): Promise<Exposition> {
    // The pools first, so the scrape's own connection is not counted busy.
    const pools = this.pools.read();
    const reads = this.pools.routing();
    const deliveries = await within(this.backlog.read(BACKLOG_STATEMENT_MS).catch(() => null), BACKLOG_WAIT_MS, null);
    return this.metrics.exposition({ pools, reads, deliveries });
  }
}
