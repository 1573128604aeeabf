import type { Tone } from '../ui/Badge.svelte';

/** How long something took, in words a reader scans: 420 ms, 3.2 s, 4 min 10 s. */
export function duration(from: number | null, to: number | null): string {
  if (from === null || to === null) return '—';
  const ms = Math.max(0, to - from);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function stateTone(state: string): Tone {
  if (state === 'completed' || state === 'done') return 'success';
  if (state === 'failed') return 'danger';
  if (state === 'cancelled') return 'warning';
  if (state === 'running' || state === 'processing') return 'accent';
  return 'neutral';
}
