import { describe, expect, it } from 'vitest';
import {
  fromLocalInput,
  fromToInput,
  rangeBounds,
  rangeFromQuery,
  rangeToQuery,
  toInput,
  toLocalInput,
  type TimeRange
} from './time-range';

const roundTrip = (range: TimeRange) => {
  const q = new URLSearchParams('agent=main');
  rangeToQuery(range, q);
  return { q: q.toString(), back: rangeFromQuery(q) };
};

describe('the Activity time range', () => {
  it('keeps presets and custom ranges in the link beside the other filters', () => {
    expect(roundTrip({ kind: 'preset', preset: '24h' })).toEqual({
      q: 'agent=main&range=24h',
      back: { kind: 'preset', preset: '24h' }
    });
    const custom = { kind: 'custom', from: Date.UTC(2026, 0, 2, 3, 4), to: null } as const;
    expect(roundTrip(custom)).toEqual({
      q: 'agent=main&range=custom&from=2026-01-02T03%3A04%3A00.000Z',
      back: custom
    });
    expect(roundTrip({ kind: 'all' }).q).toBe('agent=main');
    // What it does not understand is all time, never an error.
    expect(rangeFromQuery(new URLSearchParams('range=2y'))).toEqual({ kind: 'all' });
    // A custom range with its ends still open (or unreadable) stays custom after a reload.
    for (const q of ['range=custom', 'range=custom&from=yesterday'])
      expect(rangeFromQuery(new URLSearchParams(q))).toEqual({
        kind: 'custom',
        from: null,
        to: null
      });
  });

  it("gives the API's bounds: a preset reaches back from now, a custom range as chosen", () => {
    const now = 10 * 86_400_000;
    expect(rangeBounds({ kind: 'preset', preset: '1h' }, now)).toEqual({ since: now - 3_600_000 });
    expect(rangeBounds({ kind: 'preset', preset: '7d' }, now)).toEqual({ since: 3 * 86_400_000 });
    expect(rangeBounds({ kind: 'custom', from: null, to: 5 }, now)).toEqual({ until: 5 });
    expect(rangeBounds({ kind: 'all' }, now)).toEqual({});
  });

  it("reads and writes the inputs in the reader's zone, to the minute", () => {
    const ms = new Date(2026, 10, 23, 9, 5).getTime();
    expect(toLocalInput(ms)).toBe('2026-11-23T09:05');
    expect(fromLocalInput('2026-11-23T09:05')).toBe(ms);
    // To names a minute and includes it: the range ends where the next one starts.
    expect(fromToInput('2026-11-23T09:05')).toBe(ms + 60_000);
    expect(toInput(ms + 60_000)).toBe('2026-11-23T09:05');
    expect(toInput(ms + 27_000)).toBe('2026-11-23T09:05');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });
});
