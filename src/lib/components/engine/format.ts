/** Bytes as a person reads them: 1.9 MB, 512 B. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || bytes < 0) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The first 12 hex digits of an engine id, as the docker CLI shows them. */
export const shortId = (id: string) => id.replace(/^sha256:/, '').slice(0, 12);

/** `key=value` lines (blank lines skipped) as a record; a line without `=` is a key with ''. */
export function parsePairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    if (eq < 0) out[line] = '';
    else out[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  return out;
}

/** Whether labels satisfy every prune label filter (`key` or `key=value`), as the engine checks. */
export function labelsMatch(
  labels: Record<string, string> | null | undefined,
  filters: string[]
): boolean {
  return filters.every((f) => {
    const eq = f.indexOf('=');
    if (eq < 0) return labels?.[f] !== undefined;
    return labels?.[f.slice(0, eq)] === f.slice(eq + 1);
  });
}

/** A comma or space separated label filter field as the list the prune input takes. */
export const labelFilters = (text: string) => text.split(/[\s,]+/).filter(Boolean);
