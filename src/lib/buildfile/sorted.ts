/**
 * The index of the last element of `sorted` (ascending, first element at most `value`) that is
 * at most `value`: which line an offset is on, given the lines' starts.
 */
export function lastAtOrBelow(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
