import type { SkillLogLine, SkillRunRecord } from '$lib/contracts/assistant';

/** Lines a late joiner of a running run gets: the last ones printed. */
const RING_LINES = 2000;

export interface SkillRunListener {
  lines(lines: SkillLogLine[]): void;
  ended(run: SkillRunRecord): void;
}

/**
 * The live side of running skill runs: what each printed lately and who watches it. A finished
 * run leaves the feed; its logs live on in its record.
 */
export class SkillRunFeed {
  readonly #runs = new Map<string, { ring: SkillLogLine[]; listeners: Set<SkillRunListener> }>();

  open(runId: string): void {
    this.#runs.set(runId, { ring: [], listeners: new Set() });
  }

  log(runId: string, stream: SkillLogLine['stream'], text: string): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    const lines = [{ stream, text, at: Date.now() }];
    run.ring.push(...lines);
    if (run.ring.length > RING_LINES) run.ring.splice(0, run.ring.length - RING_LINES);
    for (const l of run.listeners) l.lines(lines);
  }

  close(record: SkillRunRecord): void {
    const run = this.#runs.get(record.runId);
    this.#runs.delete(record.runId);
    for (const l of run?.listeners ?? []) l.ended(record);
  }

  /** The kept lines of a running run; undefined when the run is not running here. */
  lines(runId: string): SkillLogLine[] | undefined {
    return this.#runs.get(runId)?.ring.slice();
  }

  follow(runId: string, listener: SkillRunListener): () => void {
    const run = this.#runs.get(runId);
    if (!run) return () => {};
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }
}
