import type { SkillView } from '$lib/contracts/skills';

/** A run's duration as people read it: 840 ms, 12.4 s, 3 min 5 s. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Where a skill comes from, in words. */
export function sourceLabel(source: SkillView['source']): string {
  return { builtin: 'Ships with Berth', file: 'berth.yaml', database: 'Console' }[source];
}

/** A byte count in binary units. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KiB`;
  return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
}
