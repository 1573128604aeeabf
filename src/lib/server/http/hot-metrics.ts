import type { Counter, Registry } from 'prom-client';

interface Entry {
  labels: Record<string, string>;
  n: number;
}

/**
 * A counter keyed by three labels, counted in nested maps on the hot path and handed to a
 * prom-client Counter when /metrics is read. prom-client's labelled inc() builds and hashes
 * the label set on every call, which showed as a tenth of a small gateway call's time.
 * An optional fourth label is determined by the first (a route's interface).
 */
export class Tally3 {
  readonly #counts = new Map<string, Map<string | number, Map<string, Entry>>>();

  constructor(
    private readonly names: readonly [string, string, string],
    private readonly implied?: string
  ) {}

  add(a: string, b: string | number, c: string, implied = ''): void {
    let byB = this.#counts.get(a);
    if (!byB) this.#counts.set(a, (byB = new Map<string | number, Map<string, Entry>>()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map<string, Entry>()));
    const entry = byC.get(c);
    if (entry) entry.n++;
    else {
      const [na, nb, nc] = this.names;
      // The implied label leads, as it did when prom-client was handed all four.
      const labels: Record<string, string> = this.implied ? { [this.implied]: implied } : {};
      Object.assign(labels, { [na]: a, [nb]: String(b), [nc]: c });
      byC.set(c, { labels, n: 1 });
    }
  }

  /** For the counter's `collect()`: the counts are cumulative, so the counter is rebuilt. */
  copyInto(counter: Counter<string>): void {
    counter.reset();
    for (const byB of this.#counts.values())
      for (const byC of byB.values()) for (const e of byC.values()) counter.inc(e.labels, e.n);
  }
}

/**
 * A latency histogram per label value with fixed buckets, observed with a loop over a few
 * numbers, and registered with prom-client as a metric whose get() returns prom-client's own
 * value shape, so the exposition format stays prom-client's.
 */
export class LatencyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, { buckets: number[]; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
    private readonly bounds: readonly number[],
    registry: Registry
  ) {
    registry.registerMetric(this as never);
  }

  observe(label: string, seconds: number): void {
    let s = this.#series.get(label);
    if (!s) this.#series.set(label, (s = { buckets: this.bounds.map(() => 0), sum: 0, count: 0 }));
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++)
      if (seconds <= bounds[i]!) {
        s.buckets[i]!++;
        break;
      }
    s.sum += seconds;
    s.count++;
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const [label, s] of this.#series) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        values.push({
          labels: { le, [this.labelName]: label },
          value: cumulative,
          metricName: `${this.name}_bucket`
        });
      });
      values.push(
        {
          labels: { le: '+Inf', [this.labelName]: label },
          value: s.count,
          metricName: `${this.name}_bucket`
        },
        { labels: { [this.labelName]: label }, value: s.sum, metricName: `${this.name}_sum` },
        { labels: { [this.labelName]: label }, value: s.count, metricName: `${this.name}_count` }
      );
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator
    };
  }

  reset(): void {
    this.#series.clear();
  }
}
