import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What operators watch, in the Prometheus text format at GET /metrics: requests and their latency by route and
 * status, the read index's size per country, writes by kind, feed syncs and their failures per source, and how
 * often the response cache answers. One registry per service (tests run several in one process).
 */
export class Metrics {
  readonly registry = new Registry();
  private counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []) {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
  readonly requests = this.counter(
    'http_requests_total',
    'HTTP requests by method, route and status (499: the client left before its answer)',
    ['method', 'route', 'status'],
  );
  readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly writes = this.counter(
    'catalogue_writes_total',
    'Events created, updated, cancelled and restored (host writes, imports and syncs)',
    ['action'],
  );
  readonly syncRuns = this.counter('feed_sync_runs_total', 'Feed syncs by source and outcome (ok, failed)', [
    'source',
    'outcome',
  ]);
  readonly indexRefreshFailures = this.counter(
    'read_index_refresh_failures_total',
    'Refreshes of the read index from the database that failed (each is tried again until it succeeds)',
  );
  readonly webhookDeliveries = this.counter(
    'webhook_deliveries_total',
    'Webhook delivery attempts by outcome (delivered, retry, failed: given up, gone: 410 ended the subscription)',
    ['outcome'],
  );
  readonly cache = this.counter(
    'response_cache_lookups_total',
    'Cacheable reads by whether the response cache answered them (hit) or not (miss)',
    ['result'],
  );

  /**
   * Read at each scrape: `events()`, the events the read index shows per country; `freshness()`, since when (epoch
   * ms) the index has been behind the database, if it is.
   */
  constructor(events?: () => Iterable<[string, number]>, freshness?: () => { behindSince: number | undefined }) {
    collectDefaultMetrics({ register: this.registry });
    if (freshness) {
      new Gauge({
        name: 'read_index_behind_seconds',
        help: 'How long the read index has been unable to catch up with the database (0: caught up)',
        registers: [this.registry],
        collect() {
          const since = freshness().behindSince;
          this.set(since === undefined ? 0 : (Date.now() - since) / 1000);
        },
      });
    }
    if (events) {
      new Gauge({
        name: 'catalogue_events',
        help: 'Events shown in the read index, by country',
        labelNames: ['country'] as const,
        registers: [this.registry],
        collect() {
          for (const [country, n] of events()) this.set({ country }, n);
        },
      });
    }
  }
}
