import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one app, in a registry of its own so that several apps can live in one process. */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route'>;
  readonly billable: Counter<'operation'>;
  readonly diagnostics: Counter<'operation' | 'state'>;

  constructor(options: { processMetrics?: boolean; snapshotConversions?: () => number } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'heatsource_' });
    const conversions = options.snapshotConversions;
    if (conversions) {
      // Read when scraped: the count lives with the conversions, which know nothing of metrics.
      let reported = 0;
      new Counter({
        name: 'heatsource_snapshot_conversions_total',
        help: 'Page images converted (resized or turned into PNG) rather than served from the cache',
        registers: [this.registry],
        collect() {
          const now = conversions();
          if (now > reported) this.inc(now - reported);
          reported = now;
        },
      });
    }
    this.requests = new Counter({
      name: 'heatsource_http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'heatsource_http_request_duration_seconds',
      help: 'HTTP request duration',
      labelNames: ['method', 'route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.billable = new Counter({
      name: 'heatsource_billable_units_total',
      help: 'Billable units charged',
      labelNames: ['operation'],
      registers: [this.registry],
    });
    this.diagnostics = new Counter({
      name: 'heatsource_diagnostic_results_total',
      help: 'Diagnostic results by state or status',
      labelNames: ['operation', 'state'],
      registers: [this.registry],
    });
  }
}
