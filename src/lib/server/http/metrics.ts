import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics for /metrics: process defaults plus Berth's own. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'berth_http_requests_total',
    help: 'HTTP requests answered, by interface, route, status and credential name',
    labelNames: ['interface', 'route', 'status', 'token'] as const,
    registers: [this.registry]
  });
  readonly httpDuration = new Histogram({
    name: 'berth_http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames: ['interface'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry]
  });
  readonly sockets = new Gauge({
    name: 'berth_realtime_connections',
    help: 'Open realtime connections by transport',
    labelNames: ['transport'] as const,
    registers: [this.registry]
  });
  readonly logins = new Counter({
    name: 'berth_logins_total',
    help: 'Login attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry]
  });

  readonly rpcCalls = new Counter({
    name: 'berth_rpc_calls_total',
    help: 'JSON-RPC calls by method, result code (0 for success) and credential name',
    labelNames: ['method', 'code', 'token'] as const,
    registers: [this.registry]
  });

  // Label children cached per key: prom-client hashes the label object on every plain inc().
  readonly #requestChildren = new Map<string, { inc(): void }>();
  readonly #durationChildren = new Map<string, { observe(v: number): void }>();
  readonly #rpcChildren = new Map<string, { inc(): void }>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'berth_' });
  }

  observeRequest(
    iface: string,
    route: string,
    status: number,
    startedAt: number,
    token: string | null
  ): void {
    const key = `${iface} ${route} ${status} ${token ?? ''}`;
    let counter = this.#requestChildren.get(key);
    if (!counter) {
      counter = this.httpRequests.labels(iface, route, String(status), token ?? '');
      this.#requestChildren.set(key, counter);
    }
    counter.inc();
    // Probe latency is not worth a histogram update on the hottest path.
    if (iface === 'probe') return;
    let histogram = this.#durationChildren.get(iface);
    if (!histogram) {
      histogram = this.httpDuration.labels(iface);
      this.#durationChildren.set(iface, histogram);
    }
    histogram.observe((performance.now() - startedAt) / 1000);
  }

  /** `method` must come from the method table (or "unknown"): labels stay bounded. */
  observeRpcCall(method: string, code: number, token: string): void {
    const key = `${method} ${code} ${token}`;
    let counter = this.#rpcChildren.get(key);
    if (!counter) {
      counter = this.rpcCalls.labels(method, String(code), token);
      this.#rpcChildren.set(key, counter);
    }
    counter.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
