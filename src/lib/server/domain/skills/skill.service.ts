import { z } from 'zod';
import type { SkillInfo, SkillRunRecord } from '$lib/contracts/assistant';
import type { SkillRunRepository, SkillRunRow } from '../../db/repositories/skill-run.repository';
import { DomainError, notFound } from '../../errors';
import { whenStored } from '../storage-retry';
import type { SkillLogLine } from '$lib/contracts/assistant';
import type { BuiltinSkill } from './builtin-skills';
import { SkillRunFeed, type SkillRunListener } from './skill-run-feed';

const RUN_TIMEOUT_MS = 30_000;

/** The skills registry and the record of every run (params, status, output, trigger, who). */
export class SkillService {
  readonly #skills = new Map<string, BuiltinSkill>();
  readonly #feed = new SkillRunFeed();

  constructor(
    private readonly runs: SkillRunRepository,
    skills: BuiltinSkill[]
  ) {
    for (const skill of skills) this.#skills.set(skill.id, skill);
  }

  list(): SkillInfo[] {
    return [...this.#skills.values()].map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      kind: 'builtin',
      paramsSchema: z.toJSONSchema(s.params, { io: 'input' })
    }));
  }

  /** Starts a run (committed as `running`), returns its record once done. */
  start(
    id: string,
    rawParams: Record<string, unknown>,
    by: { trigger: string; actor: string | null }
  ): { runId: string; done: Promise<SkillRunRecord> } {
    const skill = this.#skills.get(id);
    if (!skill) throw notFound(`Skill ${id}`);
    const parsed = skill.params.safeParse(rawParams);
    if (!parsed.success)
      throw new DomainError(
        'INVALID',
        `params: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`
      );
    const started = Date.now();
    const run = this.runs.insert({
      id: crypto.randomUUID(),
      skillId: id,
      params: rawParams,
      status: 'running',
      trigger: by.trigger,
      actor: by.actor,
      startedAt: started
    });
    const abort = AbortSignal.timeout(RUN_TIMEOUT_MS);
    this.#feed.open(run.id);
    const log = (stream: SkillLogLine['stream'], text: string) =>
      this.#feed.log(run.id, stream, text);
    const done = skill.run(parsed.data, abort, log).then(
      (output) => this.#finish(run.id, 'completed', 0, output, null, started),
      (err: unknown) =>
        this.#finish(
          run.id,
          'failed',
          1,
          null,
          err instanceof Error ? err.message : String(err),
          started
        )
    );
    return { runId: run.id, done };
  }

  /**
   * A turn's run: while storage refuses to record the start (locked database, full disk) it
   * waits, as the turn does, until `signal` cancels it.
   */
  async trigger(
    id: string,
    params: Record<string, unknown>,
    by: { trigger: string; actor: string | null },
    signal?: AbortSignal
  ) {
    const started = await whenStored(
      () => this.start(id, params, by),
      () => signal?.aborted ?? false
    );
    if (!started) throw new Error('cancelled');
    const run = await started.done;
    if (run.status === 'failed') throw new DomainError('INVALID', run.logs ?? 'skill failed');
    return run;
  }

  /** A run as a watcher first sees it: the lines kept while it runs, or its record once ended. */
  snapshot(runId: string): { lines: SkillLogLine[]; ended: SkillRunRecord | null } {
    const lines = this.#feed.lines(runId);
    if (lines) return { lines, ended: null };
    const row = this.runs.byId(runId);
    return { lines: [], ended: row ? toRecord(row) : null };
  }

  /** Each new batch of a running run's lines, then its end; nothing for a run not running. */
  follow(runId: string, listener: SkillRunListener): () => void {
    return this.#feed.follow(runId, listener);
  }

  get(runId: string): SkillRunRecord {
    const row = this.runs.byId(runId);
    if (!row) throw notFound('Skill run');
    return toRecord(row);
  }

  /** Runs left `running` by a crash will never finish: they are failed at start. */
  recover(): number {
    return this.runs.failRunning(Date.now());
  }

  /** The result is recorded once storage takes it: a run is not lost to a locked database. */
  async #finish(
    id: string,
    status: 'completed' | 'failed',
    exitCode: number,
    output: unknown,
    logs: string | null,
    started: number
  ): Promise<SkillRunRecord> {
    const finishedAt = Date.now();
    const row = await whenStored(() =>
      this.runs.finish(id, {
        status,
        exitCode,
        output,
        logs,
        finishedAt,
        durationMs: finishedAt - started
      })
    );
    const record = toRecord(row!);
    this.#feed.close(record);
    return record;
  }
}

export function toRecord(row: SkillRunRow): SkillRunRecord {
  return {
    runId: row.id,
    skillId: row.skillId,
    status: row.status,
    output: row.output ?? null,
    exitCode: row.exitCode ?? null,
    durationMs: row.durationMs ?? null,
    params: row.params,
    trigger: row.trigger,
    actor: row.actor ?? null,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt ?? null,
    logs: row.logs ?? null
  };
}
