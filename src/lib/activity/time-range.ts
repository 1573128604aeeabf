/**
 * The Activity page's time range: a preset relative to now, or a custom from/to. It lives in
 * the link (`?range=1h|24h|7d` or `?range=custom&from=<ISO>&to=<ISO>`, UTC instants so a link
 * means the same moment in every zone) and becomes the API's `since`/`until` (ms, until
 * exclusive). The To input names a minute and includes it: its instant is the next minute's
 * start (toInput/fromToInput). The inputs show from/to in the reader's own zone (`datetime-local`).
 */
export const RANGE_PRESETS = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 }
] as const;

export type RangePreset = (typeof RANGE_PRESETS)[number]['id'];

export type TimeRange =
  | { kind: 'all' }
  | { kind: 'preset'; preset: RangePreset }
  /** Either end may be open. */
  | { kind: 'custom'; from: number | null; to: number | null };

export const ALL_TIME: TimeRange = { kind: 'all' };

function instant(value: string | null): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** From the link; anything it does not understand is "all time". */
export function rangeFromQuery(q: URLSearchParams): TimeRange {
  const range = q.get('range');
  const preset = RANGE_PRESETS.find((p) => p.id === range);
  if (preset) return { kind: 'preset', preset: preset.id };
  // A custom range whose ends are still to be chosen stays custom (its inputs stay shown).
  if (range === 'custom')
    return { kind: 'custom', from: instant(q.get('from')), to: instant(q.get('to')) };
  return ALL_TIME;
}

/** Writes the range into `q` (and removes what an earlier range left there). */
export function rangeToQuery(range: TimeRange, q: URLSearchParams): void {
  for (const key of ['range', 'from', 'to']) q.delete(key);
  if (range.kind === 'preset') q.set('range', range.preset);
  if (range.kind === 'custom') {
    q.set('range', 'custom');
    if (range.from !== null) q.set('from', new Date(range.from).toISOString());
    if (range.to !== null) q.set('to', new Date(range.to).toISOString());
  }
}

/** The API's bounds as of `now`: a preset reaches back from the moment it is applied. */
export function rangeBounds(range: TimeRange, now: number): { since?: number; until?: number } {
  if (range.kind === 'preset') {
    const { ms } = RANGE_PRESETS.find((p) => p.id === range.preset)!;
    return { since: Math.max(0, now - ms) };
  }
  if (range.kind === 'custom')
    return {
      ...(range.from !== null ? { since: range.from } : {}),
      ...(range.to !== null ? { until: range.to } : {})
    };
  return {};
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in the browser's zone (the reader's). */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (the browser's zone) as an instant; '' or nonsense → null. */
export function fromLocalInput(value: string): number | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const ms = new Date(y, mo - 1, d, h, mi).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** The To input shows the minute its (exclusive) instant closes: 10:31:00.000 shows 10:30. */
export function toInput(ms: number | null): string {
  return toLocalInput(ms === null ? null : ms - 1);
}

/** "To 10:30" includes 10:30:59: the range ends where the next minute starts. */
export function fromToInput(value: string): number | null {
  const ms = fromLocalInput(value);
  return ms === null ? null : ms + 60_000;
}
