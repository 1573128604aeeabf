import type { SkillLogLine } from '$lib/contracts/assistant';

/** Lines kept in the page; a run printing more keeps its last ones (the record keeps its own). */
export const MAX_LINES = 5000;

const lineKey = (l: SkillLogLine) => `${l.at}|${l.stream}|${l.text}`;

/**
 * A run's shown lines after a batch arrives. After a (re)join the server repeats the lines it
 * kept, so that batch skips those already shown; later batches are all new.
 */
export function appendLines(
  shown: SkillLogLine[],
  batch: SkillLogLine[],
  afterJoin: boolean
): SkillLogLine[] {
  let fresh = batch;
  if (afterJoin) {
    const seen = Object.fromEntries(shown.map((l) => [lineKey(l), true]));
    fresh = batch.filter((l) => !Object.hasOwn(seen, lineKey(l)));
  }
  if (fresh.length === 0) return shown;
  const all = shown.concat(fresh);
  return all.length > MAX_LINES ? all.slice(all.length - MAX_LINES) : all;
}
