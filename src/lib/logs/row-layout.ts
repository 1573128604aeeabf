/**
 * Where each row of a virtual list stands. Fixed-height rows need no table; rows of varying
 * height (wrapped lines) keep prefix sums in a Float64Array that is updated from the first row
 * that changed: rows leaving the front shift the table, rows arriving at the end extend it, so
 * a following viewer pays for the new rows, not for the 200,000 it holds.
 */
export interface RowChange {
  /** Rows cut from the front since the last update. */
  removed: number;
  /** First row (after the cut) whose height or identity may differ. */
  from: number;
}

export class RowLayout {
  #count = 0;
  #rowHeight = 1;
  #offsets: Float64Array | null = null;

  fixed(count: number, rowHeight: number): void {
    this.#count = count;
    this.#rowHeight = Math.max(1, rowHeight);
    this.#offsets = null;
  }

  /** Rows of varying height; without `change`, every row is measured again. */
  variable(count: number, heightOf: (index: number) => number, change?: RowChange): void {
    let offsets = this.#offsets;
    let from = 0;
    if (offsets && change && change.removed < this.#count) {
      const kept = this.#count - change.removed;
      if (change.removed > 0) {
        const base = offsets[change.removed]!;
        offsets.copyWithin(0, change.removed, this.#count + 1);
        for (let i = 0; i <= kept; i++) offsets[i]! -= base;
      }
      from = Math.max(0, Math.min(change.from, kept, count));
    }
    if (!offsets || offsets.length < count + 1) {
      const grown = new Float64Array(Math.max(count + 1, Math.ceil((count + 1) * 1.25)));
      if (offsets && from > 0) grown.set(offsets.subarray(0, from + 1));
      offsets = grown;
    }
    offsets[0] = 0;
    for (let i = from; i < count; i++) offsets[i + 1] = offsets[i]! + heightOf(i);
    this.#offsets = offsets;
    this.#count = count;
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
    if (!this.#offsets) {
      return Math.min(Math.max(Math.floor(y / this.#rowHeight), 0), this.#count - 1);
    }
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
