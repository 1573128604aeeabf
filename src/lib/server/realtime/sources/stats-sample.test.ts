import { describe, expect, it } from 'vitest';
import { toStatsSample, type RawStats } from './stats-sample';

const raw = (total: number, system: number, extra: Partial<RawStats> = {}): RawStats => ({
  read: '2026-01-01T00:00:00Z',
  cpu_stats: { cpu_usage: { total_usage: total }, system_cpu_usage: system, online_cpus: 2 },
  ...extra
});

describe('stats sample', () => {
  it('computes CPU % from the previous sample as the engine documents it', () => {
    const first = raw(1_000, 100_000);
    const second = raw(26_000, 200_000);
    // (25,000 / 100,000) × 2 CPUs × 100
    expect(toStatsSample(second, first).cpuPercent).toBe(50);
    // The first sample compares with the engine's precpu_stats, when it gave one.
    expect(toStatsSample(raw(5_000, 100_000), null).cpuPercent).toBeNull();
    expect(toStatsSample({ ...second, precpu_stats: first.cpu_stats }, null).cpuPercent).toBe(50);
  });

  it('leaves the page cache out of memory and sums networks and block I/O', () => {
    const sample = toStatsSample(
      raw(0, 0, {
        memory_stats: { usage: 3_000, limit: 10_000, stats: { inactive_file: 1_000 } },
        networks: { eth0: { rx_bytes: 5, tx_bytes: 7 }, eth1: { rx_bytes: 1, tx_bytes: 1 } },
        blkio_stats: {
          io_service_bytes_recursive: [
            { op: 'read', value: 4096 },
            { op: 'Write', value: 512 },
            { op: 'Read', value: 4 }
          ]
        },
        pids_stats: { current: 3 }
      }),
      null
    );
    expect(sample).toMatchObject({
      memory: { usage: 2_000, limit: 10_000, percent: 20 },
      network: { rxBytes: 6, txBytes: 8 },
      blockIo: { readBytes: 4100, writeBytes: 512 },
      pids: 3,
      cpuPercent: null
    });
  });
});
