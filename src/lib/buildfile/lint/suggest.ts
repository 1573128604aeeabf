/**
 * "did you mean …?" as BuildKit's util/suggest picks it: the option at the smallest edit
 * distance under 3; none when the value is itself an option. Case-insensitive matching gives the
 * match in the value's case (all lower or all upper) as BuildKit does.
 */

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

export function suggest(
  value: string,
  options: Iterable<string>,
  caseSensitive = true
): string | undefined {
  const wanted = caseSensitive ? value : value.toLowerCase();
  let best: string | undefined;
  let distance = 3;
  for (const option of options) {
    const candidate = caseSensitive ? option : option.toLowerCase();
    if (candidate === wanted) return undefined;
    const d = levenshtein(wanted, candidate);
    if (d < distance) {
      distance = d;
      best = caseSensitive ? option : matchCase(candidate, value);
    }
  }
  return best;
}

function matchCase(option: string, original: string): string {
  if (original === original.toLowerCase()) return option.toLowerCase();
  if (original === original.toUpperCase()) return option.toUpperCase();
  return option;
}
