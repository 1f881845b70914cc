import type { ServiceState } from '@board/kernel';
import { PromMetrics } from './prom-metrics';

const STATE: ServiceState = {
  pools: [
    { pool: 'requests', open: 4, idle: 1, waiting: 2, max: 10 },
    { pool: 'background', open: 1, idle: 1, waiting: 0, max: 2 },
  ],
  reads: null,
  deliveries: { pending: 5, failed: 2, oldestPendingSeconds: 90.5, oldestFailedSeconds: 60 },
};

const lines = async (metrics: PromMetrics, state = STATE) => (await metrics.exposition(state)).text.split('\n');

describe('PromMetrics', () => {
  it('answers the counters and the state in Prometheus’s text format', async () => {
    const metrics = new PromMetrics({ version: '9.9.9', processMetrics: false });
    metrics.requestAnswered('GET', '/api/tasks/:taskId', 200, 0.004);
    metrics.requestAnswered('GET', '/api/tasks/:taskId', 404, 0.002);
    metrics.noticeHeard('change');
    metrics.jobsLeased('webhook-delivery', 3);
    metrics.jobsLeased('notification-mail', 0);
    metrics.deliveryTried('dropped');
    metrics.sweepDone('retention', false, 0.2);
    metrics.sweepDone('retention', true, 0.1);
    const exposition = await metrics.exposition(STATE);
    expect(exposition.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = exposition.text.split('\n');
    expect(text).toEqual(
      expect.arrayContaining([
        'board_service_info{version="9.9.9"} 1',
        'board_http_requests_total{method="GET",route="/api/tasks/:taskId",status="200"} 1',
        'board_http_requests_total{method="GET",route="/api/tasks/:taskId",status="404"} 1',
        'board_http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/api/tasks/:taskId"} 1',
        'board_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/tasks/:taskId"} 2',
        'board_http_request_duration_seconds_count{method="GET",route="/api/tasks/:taskId"} 2',
        'board_notices_heard_total{type="change"} 1',
        'board_jobs_leased_total{job="webhook-delivery"} 3',
        'board_webhook_tries_total{outcome="dropped"} 1',
        'board_sweeps_total{sweep="retention",outcome="done"} 1',
        'board_sweeps_total{sweep="retention",outcome="failed"} 1',
        'board_sweep_duration_seconds_count{sweep="retention"} 2',
        'board_db_pool_connections{pool="requests",state="busy"} 3',
        'board_db_pool_connections{pool="requests",state="idle"} 1',
        'board_db_pool_waiting{pool="requests"} 2',
        'board_db_pool_max{pool="background"} 2',
        'board_webhook_deliveries_pending 5',
        'board_webhook_deliveries_failed 2',
        'board_webhook_deliveries_oldest_seconds{state="pending"} 90.5',
        'board_webhook_deliveries_oldest_seconds{state="failed"} 60',
        'board_webhook_backlog_read 1',
      ]),
    );
    // A job with nothing leased adds no series.
    expect(text.some((l) => l.startsWith('board_jobs_leased_total{job="notification-mail"}'))).toBe(false);
  });

  it('counts open streams up and down, each closed once', async () => {
    const metrics = new PromMetrics({ version: '1', processMetrics: false });
    const a = metrics.streamOpened('project');
    metrics.streamOpened('project');
    a();
    a();
    expect(await lines(metrics)).toContain('board_streams_open{kind="project"} 1');
  });

  it('keeps the last outbox numbers when a scrape could not read it, and says so', async () => {
    const metrics = new PromMetrics({ version: '1', processMetrics: false });
    await metrics.exposition(STATE);
    const text = await lines(metrics, { ...STATE, deliveries: null });
    expect(text).toEqual(expect.arrayContaining(['board_webhook_backlog_read 0', 'board_webhook_deliveries_pending 5']));
  });

  it('shows each read replica’s lag and pool, and where reads went, counting only what came since the last scrape', async () => {
    const metrics = new PromMetrics({ version: '1', processMetrics: false });
    const withReplicas = (primaryServed: number, served: number, lagSeconds: number | null): ServiceState => ({
      ...STATE,
      pools: [...STATE.pools, { pool: 'replica 1', open: 3, idle: 2, waiting: 0, max: 10 }],
      reads: { primaryServed, replicas: [{ replica: 'replica 1', lagSeconds, current: lagSeconds !== null && lagSeconds < 0.2, served }] },
    });
    let text = await lines(metrics, withReplicas(2, 7, 0.05));
    expect(text).toContain('board_replica_lag_seconds{replica="replica 1"} 0.05');
    expect(text).toContain('board_replica_current{replica="replica 1"} 1');
    expect(text).toContain('board_replica_reads_total{server="replica 1"} 7');
    expect(text).toContain('board_replica_reads_total{server="primary"} 2');
    expect(text).toContain('board_db_pool_connections{pool="replica 1",state="busy"} 1');
    // Replay stopped answering: no lag to show, not current; the totals grow by what came since.
    text = await lines(metrics, withReplicas(5, 7, null));
    expect(text.some((l) => l.startsWith('board_replica_lag_seconds{'))).toBe(false);
    expect(text).toContain('board_replica_current{replica="replica 1"} 0');
    expect(text).toContain('board_replica_reads_total{server="primary"} 5');
    expect(text).toContain('board_replica_reads_total{server="replica 1"} 7');
  });

  it('has no replica lines without read replicas', async () => {
    const text = await lines(new PromMetrics({ version: '1', processMetrics: false }));
    expect(text.some((l) => l.startsWith('board_replica_') && !l.startsWith('#'))).toBe(false);
  });

  it('keeps a registry per instance: two apps in one process count apart', async () => {
    const one = new PromMetrics({ version: '1' });
    const two = new PromMetrics({ version: '1' });
    one.noticeHeard('webhook');
    expect(await lines(one)).toContain('board_notices_heard_total{type="webhook"} 1');
    expect((await lines(two)).some((l) => l.startsWith('board_notices_heard_total{'))).toBe(false);
    expect((await lines(two)).some((l) => l.startsWith('process_cpu_user_seconds_total'))).toBe(true);
  });
});
