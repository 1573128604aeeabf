/** A heartbeat interval as people say it: 45 s, 5 min, 1 h 30 min. */
export function formatInterval(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds % 60 !== 0 && seconds < 3600)
    return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}

interface HeartbeatClock {
  heartbeatMs: number;
  lastHeartbeatAt: number | null;
  nextHeartbeatAt: number | null;
}

/**
 * The last and next heartbeat as they stand at `now`. The server's timer ticks every
 * `heartbeatMs` from the `nextHeartbeatAt` it reported, so ticks passed since the list was
 * read are counted on rather than shown as a next beat in the past.
 */
export function heartbeatTimes(
  agent: HeartbeatClock,
  now: number
): { last: number | null; next: number | null } {
  const { heartbeatMs, lastHeartbeatAt: last, nextHeartbeatAt: next } = agent;
  if (next === null || now < next) return { last, next };
  const passed = Math.floor((now - next) / heartbeatMs) + 1;
  const ticked = next + passed * heartbeatMs;
  return { last: Math.max(last ?? 0, ticked - heartbeatMs), next: ticked };
}

const clockFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/** A heartbeat moment as the reader's local time of day, to the second. */
export const formatClock = (at: number): string => clockFormat.format(new Date(at));
