import { describe, expect, it } from 'vitest';
import { RowLayout } from './row-layout';

describe('RowLayout', () => {
  it('places fixed-height rows by arithmetic', () => {
    const layout = new RowLayout();
    layout.update(200_000, 20);
    expect(layout.total).toBe(4_000_000);
    expect(layout.offsetOf(10)).toBe(200);
    expect(layout.indexAt(219)).toBe(10);
    expect(layout.indexAt(-5)).toBe(0);
    expect(layout.indexAt(1e9)).toBe(199_999);
    expect(layout.range(200, 100, 3)).toEqual({ start: 7, end: 19 });
  });

  it('places rows of varying height by prefix sums', () => {
    const layout = new RowLayout();
    const heights = [20, 60, 20, 40];
    layout.update(4, 20, (i) => heights[i]!);
    expect(layout.total).toBe(140);
    expect(layout.offsetOf(2)).toBe(80);
    expect(layout.heightOf(1)).toBe(60);
    expect(layout.indexAt(79)).toBe(1);
    expect(layout.indexAt(80)).toBe(2);
    expect(layout.range(25, 10, 0)).toEqual({ start: 1, end: 2 });
    // Fewer rows later: the table is reused and only the live part counts.
    layout.update(2, 20, (i) => heights[i]!);
    expect(layout.total).toBe(80);
    expect(layout.indexAt(500)).toBe(1);
  });

  it('has no rows to show when empty', () => {
    const layout = new RowLayout();
    layout.update(0, 20);
    expect(layout.range(0, 500, 5)).toEqual({ start: 0, end: 0 });
    expect(layout.total).toBe(0);
  });
});
