import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { LatencyHistogram, Tally3 } from './hot-metrics';

/** Prometheus metrics for /metrics: process defaults plus Berth's own. */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests = new Tally3(['route', 'status', 'token'], 'interface');
  readonly httpRequests: Counter<string> = new Counter({
    name: 'berth_http_requests_total',
    help: 'HTTP requests answered, by interface, route, status and credential name',
    labelNames: ['interface', 'route', 'status', 'token'] as const,
    registers: [this.registry],
    collect: (): void => this.#requests.copyInto(this.httpRequests)
  });
  readonly httpDuration = new LatencyHistogram(
    'berth_http_request_duration_seconds',
    'Time to answer an HTTP request',
    'interface',
    [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    this.registry
  );
  readonly sockets = new Gauge({
    name: 'berth_realtime_connections',
    help: 'Open realtime connections by transport',
    labelNames: ['transport'] as const,
    registers: [this.registry]
  });
  /** Set by the realtime server: log lines held for sockets that read slowly. */
  logLinesHeld: () => number = () => 0;
  readonly #logLinesHeld: Gauge = new Gauge({
    name: 'berth_realtime_log_lines_held',
    help: 'Log lines waiting in the bounded per-socket outboxes of slow sockets',
    registers: [this.registry],
    collect: (): void => this.#logLinesHeld.set(this.logLinesHeld())
  });
  readonly logins = new Counter({
    name: 'berth_logins_total',
    help: 'Login attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry]
  });

  readonly #rpc = new Tally3(['method', 'code', 'token']);
  readonly rpcCalls: Counter<string> = new Counter({
    name: 'berth_rpc_calls_total',
    help: 'JSON-RPC calls by method, result code (0 for success) and credential name',
    labelNames: ['method', 'code', 'token'] as const,
    registers: [this.registry],
    collect: (): void => this.#rpc.copyInto(this.rpcCalls)
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'berth_' });
  }

  /** `route` is a routing-table path or "console": labels stay bounded. */
  observeRequest(
    iface: string,
    route: string,
    status: number,
    startedAt: number,
    token: string | null
  ): void {
    this.#requests.add(route, status, token ?? '', iface);
    // Probe latency is not worth a histogram update on the hottest path.
    if (iface !== 'probe') this.httpDuration.observe(iface, (performance.now() - startedAt) / 1000);
  }

  /** `method` must come from the method table (or "unknown"): labels stay bounded. */
  observeRpcCall(method: string, code: number, token: string): void {
    this.#rpc.add(method, code, token);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
