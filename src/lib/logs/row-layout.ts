/**
 * Where each row of a virtual list stands. Fixed-height rows need no table; rows of varying
 * height (wrapped lines) keep prefix sums in a Float64Array, rebuilt in one pass when the rows
 * change: about a millisecond for 200,000 rows, once per animation frame at most.
 */
export class RowLayout {
  #count = 0;
  #rowHeight = 1;
  #offsets: Float64Array | null = null;

  /** `heightOf` given: rows vary; omitted: every row is `rowHeight` tall. */
  update(count: number, rowHeight: number, heightOf?: (index: number) => number): void {
    this.#count = count;
    this.#rowHeight = Math.max(1, rowHeight);
    if (!heightOf) {
      this.#offsets = null;
      return;
    }
    const offsets =
      this.#offsets &&
      this.#offsets.length >= count + 1 &&
      this.#offsets.length < 2 * (count + 1) + 1024
        ? this.#offsets
        : new Float64Array(count + 1 + 1024);
    offsets[0] = 0;
    for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + heightOf(i);
    this.#offsets = offsets;
  }

  get count(): number {
    return this.#count;
  }

  get total(): number {
    return this.offsetOf(this.#count);
  }

  offsetOf(index: number): number {
    const i = Math.min(Math.max(index, 0), this.#count);
    return this.#offsets ? this.#offsets[i]! : i * this.#rowHeight;
  }

  heightOf(index: number): number {
    return this.offsetOf(index + 1) - this.offsetOf(index);
  }

  /** The row covering vertical position y (clamped to the rows there are). */
  indexAt(y: number): number {
    if (this.#count === 0) return 0;
    if (!this.#offsets)
      return Math.min(Math.max(Math.floor(y / this.#rowHeight), 0), this.#count - 1);
    let lo = 0;
    let hi = this.#count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.#offsets[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Rows [start, end) that intersect [top, top + height), widened by `overscan` each side. */
  range(top: number, height: number, overscan: number): { start: number; end: number } {
    if (this.#count === 0) return { start: 0, end: 0 };
    const start = Math.max(0, this.indexAt(top) - overscan);
    const end = Math.min(this.#count, this.indexAt(top + height) + 1 + overscan);
    return { start, end };
  }
}
