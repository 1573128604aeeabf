import type { StatsSample } from '$lib/contracts/realtime';

/** The fields of the engine's stats record that the console uses. */
export interface RawStats {
  read?: string;
  pids_stats?: { current?: number };
  memory_stats?: { usage?: number; limit?: number; stats?: Record<string, number> };
  cpu_stats?: CpuStats;
  precpu_stats?: CpuStats;
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
  blkio_stats?: { io_service_bytes_recursive?: { op?: string; value?: number }[] | null };
}

interface CpuStats {
  cpu_usage?: { total_usage?: number; percpu_usage?: number[] };
  system_cpu_usage?: number;
  online_cpus?: number;
}

/**
 * The engine's documented CPU %: the container's CPU time delta over the host's, times the
 * online CPUs, from `previous` (the last sample this stream gave) or, for the first sample, from
 * the engine's own `precpu_stats`.
 */
export function toStatsSample(raw: RawStats, previous: RawStats | null): StatsSample {
  const cpu = raw.cpu_stats ?? {};
  const before = previous?.cpu_stats ?? raw.precpu_stats ?? {};
  const onlineCpus = cpu.online_cpus || cpu.cpu_usage?.percpu_usage?.length || 1;
  const cpuDelta = (cpu.cpu_usage?.total_usage ?? 0) - (before.cpu_usage?.total_usage ?? 0);
  const systemDelta = (cpu.system_cpu_usage ?? 0) - (before.system_cpu_usage ?? 0);
  const comparable = before.system_cpu_usage !== undefined && systemDelta > 0 && cpuDelta >= 0;

  const mem = raw.memory_stats ?? {};
  // cgroup v2 reports inactive_file, v1 total_inactive_file: the page cache docker stats leaves out.
  const cache = mem.stats?.inactive_file ?? mem.stats?.total_inactive_file ?? 0;
  const usage = Math.max(0, (mem.usage ?? 0) - cache);
  const limit = mem.limit ?? 0;

  let rxBytes = 0;
  let txBytes = 0;
  for (const net of Object.values(raw.networks ?? {})) {
    rxBytes += net.rx_bytes ?? 0;
    txBytes += net.tx_bytes ?? 0;
  }
  let readBytes = 0;
  let writeBytes = 0;
  for (const entry of raw.blkio_stats?.io_service_bytes_recursive ?? []) {
    const op = entry.op?.toLowerCase();
    if (op === 'read') readBytes += entry.value ?? 0;
    if (op === 'write') writeBytes += entry.value ?? 0;
  }

  return {
    read: raw.read ?? '',
    cpuPercent: comparable ? round((cpuDelta / systemDelta) * onlineCpus * 100) : null,
    onlineCpus,
    memory: { usage, limit, percent: limit > 0 ? round((usage / limit) * 100) : 0 },
    network: { rxBytes, txBytes },
    blockIo: { readBytes, writeBytes },
    pids: raw.pids_stats?.current ?? 0
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
