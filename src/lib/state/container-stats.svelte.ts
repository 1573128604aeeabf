import type { StatsSample } from '$lib/contracts/realtime';

/** One point of the charts: rates per second from the totals of this sample and the last. */
export interface StatsPoint {
  at: number;
  cpu: number | null;
  memory: number;
  memoryLimit: number;
  rx: number;
  tx: number;
  blockRead: number;
  blockWrite: number;
  pids: number;
}

export const STATS_HISTORY = 120;

/**
 * The last two minutes of a container's stats. The engine gives network and block I/O as
 * totals since the start; the charts show bytes per second between two samples (0 when a
 * total went down, as after a restart).
 */
export class ContainerStatsHistory {
  points = $state.raw<StatsPoint[]>([]);
  latest = $state.raw<StatsSample | null>(null);
  #previous: StatsSample | null = null;

  add(sample: StatsSample): void {
    const prev = this.#previous;
    const at = Date.parse(sample.read);
    const seconds = prev ? (at - Date.parse(prev.read)) / 1000 : 0;
    const rate = (now: number, before: number | undefined) =>
      seconds > 0 && before !== undefined && now >= before ? (now - before) / seconds : 0;
    const point: StatsPoint = {
      at,
      cpu: sample.cpuPercent,
      memory: sample.memory.usage,
      memoryLimit: sample.memory.limit,
      rx: rate(sample.network.rxBytes, prev?.network.rxBytes),
      tx: rate(sample.network.txBytes, prev?.network.txBytes),
      blockRead: rate(sample.blockIo.readBytes, prev?.blockIo.readBytes),
      blockWrite: rate(sample.blockIo.writeBytes, prev?.blockIo.writeBytes),
      pids: sample.pids
    };
    this.#previous = sample;
    this.latest = sample;
    this.points = [...this.points, point].slice(-STATS_HISTORY);
  }
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Bytes the way people read them: `1.5 MiB`. */
export function formatBytes(n: number): string {
  let i = 0;
  while (n >= 1024 && i < UNITS.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${i === 0 ? n.toFixed(0) : n.toFixed(1)} ${UNITS[i]}`;
}
