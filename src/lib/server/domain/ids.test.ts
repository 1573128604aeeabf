import { describe, expect, it } from 'vitest';
import { uuidv7, uuidv7Ms } from './ids';

describe('uuidv7', () => {
  it('is a version 7 UUID that sorts by time', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.slice(0, 13)).toBe('018bcfe5-6800');
    expect(uuidv7Ms(a)).toBe(1_700_000_000_000);
    expect(a < b).toBe(true);
    expect(uuidv7()).not.toBe(uuidv7());
    // Past a refill of the random pool, ids stay distinct and well-formed.
    const many = Array.from({ length: 1000 }, () => uuidv7());
    expect(new Set(many).size).toBe(1000);
    for (const id of many) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
  });

  it('counts up within a millisecond, past its counter and when the clock goes back', () => {
    const ms = Date.now() + 10_000_000;
    // The same millisecond over and over: more ids than the 12-bit counter holds.
    const same = Array.from({ length: 5000 }, () => uuidv7(ms));
    expect(same.toSorted()).toEqual(same);
    expect(new Set(same).size).toBe(5000);
    expect(uuidv7Ms(same[0]!)).toBe(ms);
    // The counter ran out (at most 4,096 a millisecond): the later ids carry on in the next ones.
    expect(uuidv7Ms(same.at(-1)!)).toBeGreaterThan(ms);
    for (const id of same) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
    // A clock that went back still sorts after what came before.
    const later = uuidv7(ms - 60_000);
    expect(later > same.at(-1)!).toBe(true);
    // A burst at the real clock keeps its order too.
    const burst = Array.from({ length: 1000 }, () => uuidv7());
    expect(burst.toSorted()).toEqual(burst);
  });
});
