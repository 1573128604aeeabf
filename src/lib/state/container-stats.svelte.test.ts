import { describe, expect, it } from 'vitest';
import type { StatsSample } from '$lib/contracts/realtime';
import { ContainerStatsHistory, formatBytes, STATS_HISTORY } from './container-stats.svelte';

const sample = (second: number, rx: number, write: number): StatsSample => ({
  read: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  cpuPercent: second === 0 ? null : 12.5,
  onlineCpus: 2,
  memory: { usage: 1024, limit: 4096, percent: 25 },
  network: { rxBytes: rx, txBytes: 0 },
  blockIo: { readBytes: 0, writeBytes: write },
  pids: 3
});

describe('container stats history', () => {
  it('turns totals into rates per second between samples', () => {
    const h = new ContainerStatsHistory();
    h.add(sample(0, 1000, 0));
    h.add(sample(2, 3000, 4096));
    h.add(sample(3, 100, 4096)); // a restart: the totals start again
    expect(h.points.map((p) => [p.cpu, p.rx, p.blockWrite])).toEqual([
      [null, 0, 0],
      [12.5, 1000, 2048],
      [12.5, 0, 0]
    ]);
    expect(h.latest?.pids).toBe(3);
  });

  it('keeps a bounded history', () => {
    const h = new ContainerStatsHistory();
    for (let i = 0; i < STATS_HISTORY + 10; i++) h.add(sample(i % 60, i, i));
    expect(h.points).toHaveLength(STATS_HISTORY);
  });

  it('formats bytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GiB');
  });
});
