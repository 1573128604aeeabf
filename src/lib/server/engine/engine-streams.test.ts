import { describe, expect, it } from 'vitest';
import { unixSince } from './engine-streams';

describe('unixSince', () => {
  it('turns an RFC3339Nano time into exact Unix seconds with nanoseconds', () => {
    expect(unixSince('2026-11-23T11:24:11.665814513Z')).toBe('1795433051.665814513');
    expect(unixSince('2026-11-23T11:24:11Z')).toBe('1795433051.000000000');
    expect(unixSince('2026-11-23T12:24:11.5+01:00')).toBe('1795433051.500000000');
    expect(unixSince('1795433051.5')).toBe('1795433051.5');
    expect(() => unixSince('yesterday')).toThrow('not a timestamp');
  });
});
