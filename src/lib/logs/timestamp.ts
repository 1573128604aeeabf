/**
 * Engine timestamps are RFC 3339 with up to nine fraction digits, trailing zeros trimmed
 * ("…05.1Z" and "…05.12Z"), so strings do not sort; this turns one into epoch milliseconds
 * with the fraction kept to what a double holds (about a microsecond today).
 */
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/** The last whole second parsed: a stream's lines mostly share it, and Date.parse is dear. */
let lastSecond = '';
let lastSecondMs = Number.NaN;

/** Epoch milliseconds, or NaN when `ts` is neither a number nor an RFC 3339 time. */
export function timestampKey(ts: string | number): number {
  if (typeof ts === 'number') return ts;
  const match = RFC3339.exec(ts);
  if (!match) return Number.NaN;
  const [, base, fraction = '', zone] = match;
  const second = `${base}${zone}`;
  if (second !== lastSecond) {
    lastSecond = second;
    lastSecondMs = Date.parse(second);
  }
  return fraction ? lastSecondMs + Number(`0.${fraction}`) * 1000 : lastSecondMs;
}

/** "14:03:07.123", the reader's local time of day, for a row's timestamp column. */
export function formatClock(key: number): string {
  if (!Number.isFinite(key)) return '';
  const d = new Date(key);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
