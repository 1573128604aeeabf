import { describe, expect, it } from 'vitest';
import { daysBetween, metricOf } from './usage';

describe('usage helpers', () => {
  it('lists every UTC day of a range, the ends included, bounded', () => {
    const at = (d: string) => Date.parse(`${d}T00:00:00Z`);
    expect(daysBetween(at('2026-02-27'), at('2026-03-02') + 5)).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02'
    ]);
    expect(daysBetween(at('2026-01-01'), at('2027-12-31'))).toHaveLength(366);
  });

  it('counts tokens as prompt plus completion', () => {
    const totals = { messages: 4, turns: 2, tokens: { prompt: 10, completion: 5 } };
    expect(metricOf(totals, 'tokens')).toBe(15);
    expect(metricOf(totals, 'turns')).toBe(2);
  });
});
