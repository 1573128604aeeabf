import { isValidEngineId } from '$lib/contracts/engine-ids';

/**
 * The merged logs page's address, `/containers/logs?engine=<name>&c=<ref>&c=…`: the chosen
 * containers in order, so a view can be bookmarked and shared.
 */

/** At most this many containers at once: one distinct colour each (the viewer's palette). */
export const MERGED_LOGS_MAX = 6;

const ENGINE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export interface MergedLogsQuery {
  engine: string;
  /** Valid, distinct container names or ids, at most MERGED_LOGS_MAX, in the address's order. */
  refs: string[];
  /** What the address asked for that cannot be shown, said in words; null when nothing. */
  problem: string | null;
}

/** A name or id the log channel accepts (its parameter is at most 128 characters). */
export function isContainerRef(ref: string): boolean {
  return ref.length <= 128 && isValidEngineId('container', ref);
}

export function parseMergedLogsQuery(params: URLSearchParams): MergedLogsQuery {
  const problems: string[] = [];
  const asked = params.get('engine') ?? 'local';
  const engine = ENGINE.test(asked) ? asked : 'local';
  if (engine !== asked) problems.push(`"${asked}" is not an engine name; showing local`);
  const refs: string[] = [];
  const invalid: string[] = [];
  for (const ref of params.getAll('c')) {
    if (!isContainerRef(ref)) invalid.push(ref);
    else if (!refs.includes(ref)) refs.push(ref);
  }
  if (invalid.length)
    problems.push(`not a container name or id: ${invalid.map((r) => `"${r}"`).join(', ')}`);
  if (refs.length > MERGED_LOGS_MAX) {
    problems.push(
      `${refs.length} containers asked; at most ${MERGED_LOGS_MAX} at once, so the first ${MERGED_LOGS_MAX} are shown`
    );
    refs.length = MERGED_LOGS_MAX;
  }
  return { engine, refs, problem: problems.length ? `${problems.join('. ')}.` : null };
}

export function mergedLogsHref(engine: string, refs: readonly string[]): string {
  const params = new URLSearchParams({ engine });
  for (const ref of refs) params.append('c', ref);
  return `/containers/logs?${params}`;
}

/** The lowest palette slot none of `used` holds, so a container keeps its colour as others go. */
export function freeSlot(used: readonly number[]): number {
  let slot = 0;
  while (used.includes(slot)) slot++;
  return slot;
}

/** Whether an address's reference means this container: its name, its id or a short id. */
export function refersTo(ref: string, c: { name: string; id: string }): boolean {
  return ref === c.name || (ref.length >= 12 && c.id.startsWith(ref));
}

/**
 * The segment of a container's page address: its name, except for a container named `logs`,
 * since `/containers/logs` is the merged page; that one goes by its id.
 */
export function containerPageRef(name: string, id: string): string {
  return name === 'logs' ? id : name;
}
