import type { Notice } from './notices';

/** Which stream a client holds open: a project's changes, or a person's own notifications. */
export type StreamKind = 'project' | 'personal';

/** Work an instance claims under a lease, so that no other instance takes it meanwhile. */
export type LeasedJob = 'webhook-delivery' | 'notification-mail' | 'bucket-key';

/** The scheduled sweeps. */
export type SweepName = 'run-lease' | 'retention' | 'files' | 'notification-retention';

/** What one try of a webhook delivery came to: delivered, to be tried again, or given up. */
export type DeliveryOutcome = 'delivered' | 'retry' | 'dropped';

/** One database pool of this instance as it is now. */
export interface PoolUse {
  /** A read replica's pool is named as the replica is (`replica 1`, in DATABASE_READ_URL's order). */
  pool: 'requests' | 'background' | `replica ${number}`;
  /** Connections open (busy or idle). */
  open: number;
  idle: number;
  /** Callers waiting for a connection right now. */
  waiting: number;
  max: number;
}

/** A read replica (DATABASE_READ_URL) as this instance measures it. */
export interface ReplicaUse {
  /** `replica 1`, `replica 2`, … in DATABASE_READ_URL's order (never its address). */
  replica: string;
  /** How old the data it has replayed is now, in seconds; null while none of its answers can say (unreachable, not a replica, not sampled yet). */
  lagSeconds: number | null;
  /** Whether reads may go to it now (its lag within DATABASE_READ_MAX_LAG_MS). */
  current: boolean;
  /** Reads that only show data it has answered since this instance started. */
  served: number;
}

/** Where this instance's reads that only show data went: the replicas, and the primary. */
export interface ReadRouting {
  replicas: readonly ReplicaUse[];
  /** Such reads the primary answered (no replica current, or one that lagged past the caller's own write). */
  primaryServed: number;
}

/** The webhook outbox across every project, read at scrape time. */
export interface DeliveryBacklog {
  /** Deliveries neither delivered nor given up. */
  pending: number;
  /** Of those, the ones whose last try failed (waiting for a retry). */
  failed: number;
  /** Age of the oldest of each, in seconds; 0 when there is none. */
  oldestPendingSeconds: number;
  oldestFailedSeconds: number;
}

/** What is read at scrape time rather than counted as it happens. */
export interface ServiceState {
  pools: readonly PoolUse[];
  /** Null without read replicas. */
  reads: ReadRouting | null;
  /** Null when the outbox could not be read in time (the scrape still answers the rest). */
  deliveries: DeliveryBacklog | null;
}

/** The metrics as a scraper reads them. */
export interface Exposition {
  contentType: string;
  text: string;
}

/**
 * What the service counts for its operators (`GET /api/metrics`). Code records through this port
 * only; the adapter (libs/platform, Prometheus) decides names and formats. While metrics are off
 * the port is `NoMetrics` and recording costs nothing.
 */
export abstract class Metrics {
  /** An answer went out: `route` is the route's pattern (`/api/tasks/:taskId`), never the address asked for. */
  abstract requestAnswered(method: string, route: string, status: number, seconds: number): void;
  /** A stream opened; call the answer once when it closes. */
  abstract streamOpened(kind: StreamKind): () => void;
  abstract noticeHeard(type: Notice['type']): void;
  /** A credential check was answered from this instance's cache (`hit`) or asked of the database (`miss`). */
  abstract credentialChecked(outcome: 'hit' | 'miss'): void;
  abstract jobsLeased(job: LeasedJob, count: number): void;
  abstract deliveryTried(outcome: DeliveryOutcome): void;
  abstract sweepDone(sweep: SweepName, failed: boolean, seconds: number): void;
  abstract exposition(state: ServiceState): Promise<Exposition>;

  /** Runs one pass of a sweep and records how it went and how long it took; answers (or throws) what the pass did. */
  async sweep<T>(name: SweepName, pass: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = await pass();
      this.sweepDone(name, false, seconds());
      return result;
    } catch (error) {
      this.sweepDone(name, true, seconds());
      throw error;
    }
  }
}

const nothing = () => undefined;

/** Metrics off (`SERVICE_METRICS_TOKEN` unset): nothing is kept. */
export class NoMetrics extends Metrics {
  requestAnswered(_method: string, _route: string, _status: number, _seconds: number): void {}
  streamOpened(_kind: StreamKind): () => void {
    return nothing;
  }
  noticeHeard(_type: Notice['type']): void {}
  credentialChecked(_outcome: 'hit' | 'miss'): void {}
  jobsLeased(_job: LeasedJob, _count: number): void {}
  deliveryTried(_outcome: DeliveryOutcome): void {}
  sweepDone(_sweep: SweepName, _failed: boolean, _seconds: number): void {}
  async exposition(_state: ServiceState): Promise<Exposition> {
    return { contentType: 'text/plain; charset=utf-8', text: '' };
  }
}
