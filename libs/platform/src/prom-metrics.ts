import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryOutcome, Exposition, LeasedJob, Notice, ServiceState, StreamKind, SweepName } from '@board/kernel';
import { Metrics } from '@board/kernel';

/** Answers of an API take milliseconds; the buckets are finest there and reach a slow 10 s. */
export const REQUEST_SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A sweep pass takes from milliseconds (nothing to do) to minutes (a large backlog). */
export const SWEEP_SECONDS_BUCKETS = [0.01, 0.05, 0.25, 1, 5, 30, 120, 600];

export interface PromMetricsOptions {
  /** The service version, shown as `board_service_info{version}`. */
  version: string;
  /** Node's own process metrics (CPU, memory, event loop lag, GC). Default true. */
  processMetrics?: boolean;
}

/**
 * The `Metrics` port in Prometheus's text format (prom-client). Each instance keeps a registry of
 * its own, never the library's global one: tests run several apps in one process, and each app
 * answers only its own numbers.
 */
export class PromMetrics extends Metrics {
  private readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly streams: Gauge<'kind'>;
  private readonly notices: Counter<'type'>;
  private readonly credentials: Counter<'outcome'>;
  private readonly leased: Counter<'job'>;
  private readonly tries: Counter<'outcome'>;
  private readonly sweeps: Counter<'sweep' | 'outcome'>;
  private readonly sweepTime: Histogram<'sweep'>;
  private readonly poolConnections: Gauge<'pool' | 'state'>;
  private readonly poolWaiting: Gauge<'pool'>;
  private readonly poolMax: Gauge<'pool'>;
  private readonly pending: Gauge;
  private readonly failed: Gauge;
  private readonly oldest: Gauge<'state'>;
  private readonly backlogRead: Gauge;
  private readonly replicaLag: Gauge<'replica'>;
  private readonly replicaCurrent: Gauge<'replica'>;
  private readonly reads: Counter<'server'>;
  /** The router's own totals at the last scrape: the counter grows by what came since. */
  private readonly readsSeen = new Map<string, number>();

  constructor(options: PromMetricsOptions) {
    super();
    const registers = [this.registry];
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    new Gauge({ name: 'board_service_info', help: 'The running service version (always 1).', labelNames: ['version'], registers }).set({ version: options.version }, 1);
    this.requests = new Counter({
      name: 'board_http_requests_total',
      help: 'Answers sent, by method, route pattern (unmatched for an address no route takes) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'board_http_request_duration_seconds',
      help: 'Time from a request’s arrival to the end of its answer (a stream: its whole life), by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: REQUEST_SECONDS_BUCKETS,
      registers,
    });
    this.streams = new Gauge({ name: 'board_streams_open', help: 'Event streams open on this instance, by kind (project, personal).', labelNames: ['kind'], registers });
    this.notices = new Counter({ name: 'board_notices_heard_total', help: 'Notices this instance’s listener heard from PostgreSQL, by type.', labelNames: ['type'], registers });
    this.credentials = new Counter({
      name: 'board_credential_checks_total',
      help: 'Credential checks of requests, by outcome: hit (answered from this instance’s cache) or miss (asked of the database).',
      labelNames: ['outcome'],
      registers,
    });
    this.leased = new Counter({ name: 'board_jobs_leased_total', help: 'Jobs this instance claimed under a lease, by job.', labelNames: ['job'], registers });
    this.tries = new Counter({
      name: 'board_webhook_tries_total',
      help: 'Webhook delivery tries made by this instance, by outcome (delivered, retry, dropped).',
      labelNames: ['outcome'],
      registers,
    });
    this.sweeps = new Counter({ name: 'board_sweeps_total', help: 'Scheduled sweep passes, by sweep and outcome (done, failed).', labelNames: ['sweep', 'outcome'], registers });
    this.sweepTime = new Histogram({ name: 'board_sweep_duration_seconds', help: 'Time a sweep pass took, by sweep.', labelNames: ['sweep'], buckets: SWEEP_SECONDS_BUCKETS, registers });
    this.poolConnections = new Gauge({
      name: 'board_db_pool_connections',
      help: 'Open connections of a database pool (requests, background), by state (busy, idle).',
      labelNames: ['pool', 'state'],
      registers,
    });
    this.poolWaiting = new Gauge({ name: 'board_db_pool_waiting', help: 'Callers waiting for a connection of a database pool right now.', labelNames: ['pool'], registers });
    this.poolMax = new Gauge({ name: 'board_db_pool_max', help: 'Most connections a database pool opens.', labelNames: ['pool'], registers });
    this.pending = new Gauge({ name: 'board_webhook_deliveries_pending', help: 'Webhook deliveries of every project neither delivered nor given up.', registers });
    this.failed = new Gauge({ name: 'board_webhook_deliveries_failed', help: 'Pending webhook deliveries whose last try failed (waiting for a retry).', registers });
    this.oldest = new Gauge({
      name: 'board_webhook_deliveries_oldest_seconds',
      help: 'Age of the oldest pending (state=pending) and oldest failed (state=failed) delivery; 0 when there is none.',
      labelNames: ['state'],
      registers,
    });
    this.replicaLag = new Gauge({
      name: 'board_replica_lag_seconds',
      help: 'How old the data a read replica has replayed is, as this instance measures it (absent while the replica answers no sample).',
      labelNames: ['replica'],
      registers,
    });
    this.replicaCurrent = new Gauge({
      name: 'board_replica_current',
      help: '1 while reads may go to the replica (its lag within DATABASE_READ_MAX_LAG_MS), else 0.',
      labelNames: ['replica'],
      registers,
    });
    this.reads = new Counter({
      name: 'board_replica_reads_total',
      help: 'Reads that only show data, by the server that answered them (primary, replica 1, …); only with read replicas.',
      labelNames: ['server'],
      registers,
    });
    this.backlogRead = new Gauge({ name: 'board_webhook_backlog_read', help: '1 when this scrape read the webhook outbox in time, else 0 (its gauges then keep the last numbers read).', registers });
  }

  requestAnswered(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  streamOpened(kind: StreamKind): () => void {
    this.streams.inc({ kind });
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.streams.dec({ kind });
    };
  }

  noticeHeard(type: Notice['type']): void {
    this.notices.inc({ type });
  }

  credentialChecked(outcome: 'hit' | 'miss'): void {
    this.credentials.inc({ outcome });
  }

  jobsLeased(job: LeasedJob, count: number): void {
    if (count > 0) this.leased.inc({ job }, count);
  }

  deliveryTried(outcome: DeliveryOutcome): void {
    this.tries.inc({ outcome });
  }

  sweepDone(sweep: SweepName, failed: boolean, seconds: number): void {
    this.sweeps.inc({ sweep, outcome: failed ? 'failed' : 'done' });
    this.sweepTime.observe({ sweep }, seconds);
  }

  /** Adds what a server answered since the last scrape (the router keeps running totals). */
  private count(server: string, total: number): void {
    const grown = total - (this.readsSeen.get(server) ?? 0);
    if (grown > 0) this.reads.inc({ server }, grown);
    this.readsSeen.set(server, total);
  }

  async exposition(state: ServiceState): Promise<Exposition> {
    for (const p of state.pools) {
      this.poolConnections.set({ pool: p.pool, state: 'busy' }, p.open - p.idle);
      this.poolConnections.set({ pool: p.pool, state: 'idle' }, p.idle);
      this.poolWaiting.set({ pool: p.pool }, p.waiting);
      this.poolMax.set({ pool: p.pool }, p.max);
    }
    if (state.reads) {
      this.count('primary', state.reads.primaryServed);
      for (const r of state.reads.replicas) {
        if (r.lagSeconds === null) this.replicaLag.remove({ replica: r.replica });
        else this.replicaLag.set({ replica: r.replica }, r.lagSeconds);
        this.replicaCurrent.set({ replica: r.replica }, r.current ? 1 : 0);
        this.count(r.replica, r.served);
      }
    }
    const backlog = state.deliveries;
    this.backlogRead.set(backlog ? 1 : 0);
    // A scrape that could not read the outbox keeps the last numbers read, and says so (above).
    if (backlog) {
      this.pending.set(backlog.pending);
      this.failed.set(backlog.failed);
      this.oldest.set({ state: 'pending' }, backlog.oldestPendingSeconds);
      this.oldest.set({ state: 'failed' }, backlog.oldestFailedSeconds);
    }
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
