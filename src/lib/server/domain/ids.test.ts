import { describe, expect, it } from 'vitest';
import { uuidv7 } from './ids';

describe('uuidv7', () => {
  it('is a version 7 UUID that sorts by time', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.slice(0, 13)).toBe('018bcfe5-6800');
    expect(a < b).toBe(true);
    expect(uuidv7()).not.toBe(uuidv7());
    // Past a refill of the random pool, ids stay distinct and well-formed.
    const many = Array.from({ length: 1000 }, () => uuidv7());
    expect(new Set(many).size).toBe(1000);
    for (const id of many) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/);
  });
});
