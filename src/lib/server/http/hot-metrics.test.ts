import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LatencyHistogram, Tally3 } from './hot-metrics';

describe('hot-path metrics in prom-client text', () => {
  it('Tally3 counts per label set, the implied label first', async () => {
    const registry = new Registry();
    const tally = new Tally3(['route', 'status', 'token'], 'interface');
    const counter: Counter<string> = new Counter({
      name: 't_total',
      help: 'h',
      labelNames: ['interface', 'route', 'status', 'token'],
      registers: [registry],
      collect: (): void => tally.copyInto(counter)
    });
    tally.add('/rpc', 200, 'ops', 'rpc');
    tally.add('/rpc', 200, 'ops', 'rpc');
    tally.add('/rpc', 401, '', 'rpc');
    const first = await registry.metrics();
    expect(first).toContain('t_total{interface="rpc",route="/rpc",status="200",token="ops"} 2');
    expect(first).toContain('t_total{interface="rpc",route="/rpc",status="401",token=""} 1');
    // A second scrape does not double what the first reported.
    tally.add('/rpc', 200, 'ops', 'rpc');
    expect(await registry.metrics()).toContain('status="200",token="ops"} 3');
  });

  it('LatencyHistogram writes cumulative buckets, +Inf, sum and count', async () => {
    const registry = new Registry();
    const h = new LatencyHistogram('d_seconds', 'help', 'interface', [0.01, 0.1], registry);
    h.observe('rpc', 0.005);
    h.observe('rpc', 0.05);
    h.observe('rpc', 2);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE d_seconds histogram');
    expect(text).toContain('d_seconds_bucket{le="0.01",interface="rpc"} 1');
    expect(text).toContain('d_seconds_bucket{le="0.1",interface="rpc"} 2');
    expect(text).toContain('d_seconds_bucket{le="+Inf",interface="rpc"} 3');
    expect(text).toContain('d_seconds_sum{interface="rpc"} 2.055');
    expect(text).toContain('d_seconds_count{interface="rpc"} 3');
  });
});
