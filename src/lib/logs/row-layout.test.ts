import { describe, expect, it } from 'vitest';
import { RowLayout } from './row-layout';

describe('RowLayout', () => {
  it('places fixed-height rows by arithmetic', () => {
    const layout = new RowLayout();
    layout.fixed(200_000, 20);
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
    layout.variable(4, (i) => heights[i]!);
    expect(layout.total).toBe(140);
    expect(layout.offsetOf(2)).toBe(80);
    expect(layout.heightOf(1)).toBe(60);
    expect(layout.indexAt(79)).toBe(1);
    expect(layout.indexAt(80)).toBe(2);
    expect(layout.range(25, 10, 0)).toEqual({ start: 1, end: 2 });
  });

  it('updates from the first changed row: front cut, tail changed, rows added', () => {
    const layout = new RowLayout();
    let heights = [10, 20, 30, 40, 50];
    layout.variable(5, (i) => heights[i]!);
    const asked: number[] = [];
    // Two rows leave the front, the last kept row changes, two rows arrive.
    heights = [30, 40, 55, 60, 70];
    layout.variable(
      5,
      (i) => {
        asked.push(i);
        return heights[i]!;
      },
      { removed: 2, from: 2 }
    );
    expect(asked).toEqual([2, 3, 4]);
    expect([0, 1, 2, 3, 4, 5].map((i) => layout.offsetOf(i))).toEqual([0, 30, 70, 125, 185, 255]);
    // Growing past the table's room keeps what was laid out.
    const many = Array.from({ length: 50 }, (_, i) => heights[i] ?? 1);
    layout.variable(50, (i) => many[i]!, { removed: 0, from: 5 });
    expect(layout.offsetOf(5)).toBe(255);
    expect(layout.total).toBe(300);
  });

  it('has no rows to show when empty', () => {
    const layout = new RowLayout();
    layout.fixed(0, 20);
    expect(layout.range(0, 500, 5)).toEqual({ start: 0, end: 0 });
    expect(layout.total).toBe(0);
  });
});
