import type { SkillInfo, SkillLogLine, SkillRunRecord } from '$lib/contracts/assistant';
import type { BuildSummary } from '$lib/contracts/buildfiles';
import {
  saveSkillInput,
  skillFromBuildInput,
  skillRunsInput,
  type SkillDefinition,
  type SkillRunsPage,
  type SkillView
} from '$lib/contracts/skills';
import { checkParams, describeIssues, paramsSchemaProblem } from '$lib/skills/params';
import type { SkillRunRepository } from '../../db/repositories/skill-run.repository';
import { DomainError, invalid, notFound } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import { decodeCursor, paginate } from '../cursor';
import { uuidv7 } from '../ids';
import { whenStored } from '../storage-retry';
import type { BuiltinSkill } from './builtin-skills';
import { requireRole, type SkillActor } from './skill-actor';
import { SkillDefinitions } from './skill-definitions';
import { SkillRunFeed, type SkillRunListener } from './skill-run-feed';
import { activeView, builtinInfo, definedInfo, toRecord } from './skill-views';
import { SkillFailure, type SkillLog, type SkillResult, type SkillRunners } from './skill-runner';

/** Builtin skills have no definition: they get this long. */
const BUILTIN_TIMEOUT_MS = 30_000;
/** What a run's record keeps of its printed lines (the live channel has them all as they come). */
const LOGS_MAX_CHARS = 256 * 1024;

/** A turn's run that ran and failed: its record (exit code, partial output, logs) comes along. */
export class SkillRunFailed extends DomainError {
  constructor(readonly run: SkillRunRecord) {
    super('INVALID', run.error ?? 'skill failed');
  }
}

interface Runnable {
  info: SkillInfo;
  timeoutMs: number;
  parse(raw: Record<string, unknown>): Record<string, unknown>;
  run(
    params: Record<string, unknown>,
    runId: string,
    signal: AbortSignal,
    log: SkillLog
  ): Promise<SkillResult>;
}

export interface SkillServiceOptions {
  /** berth.yaml's `skills:`, read again on every reload. */
  fileSkills: SkillDefinition[];
  runners: SkillRunners;
  audit: AuditService;
}

/**
 * The one skills registry (builtin skills, berth.yaml's and the console's), used by REST, RPC,
 * tRPC and agents, and the record of every run (params, status, output, logs, trigger, who).
 */
export class SkillService {
  readonly #builtins = new Map<string, BuiltinSkill>();
  readonly #definitions: SkillDefinitions;
  readonly #feed = new SkillRunFeed();
  readonly #runners: SkillRunners;
  readonly #audit: AuditService;

  constructor(
    private readonly runs: SkillRunRepository,
    builtins: BuiltinSkill[],
    options: SkillServiceOptions
  ) {
    for (const skill of builtins) this.#builtins.set(skill.id, skill);
    this.#runners = options.runners;
    this.#audit = options.audit;
    this.#definitions = new SkillDefinitions(
      this.#notBuiltin(options.fileSkills),
      runs.definitions()
    );
  }

  /** A reload (system.reload): berth.yaml's skills follow it at once. */
  apply(fileSkills: SkillDefinition[]): void {
    this.#definitions.apply(this.#notBuiltin(fileSkills));
  }

  /** Every skill that can run, builtin first. */
  list(): SkillInfo[] {
    return [
      ...[...this.#builtins.values()].map(builtinInfo),
      ...this.#definitions.all().map((a) => definedInfo(a.definition))
    ];
  }

  /** The console's list: every skill, and console skills the config file shadows. */
  views(actor: SkillActor): SkillView[] {
    requireRole(actor, 'viewer', 'read skills');
    const views: SkillView[] = [...this.#builtins.values()].map((s) => ({
      ...builtinInfo(s),
      source: 'builtin',
      definition: null,
      shadowed: false,
      updatedAt: null
    }));
    for (const active of this.#definitions.all()) views.push(activeView(active));
    for (const row of this.#definitions.shadowed()) {
      const parsed = saveSkillInput.shape.definition.safeParse(row.definition);
      if (parsed.success)
        views.push({
          ...definedInfo(parsed.data),
          source: 'database',
          definition: parsed.data,
          shadowed: true,
          updatedAt: row.updatedAt
        });
    }
    return views;
  }

  /** Creates or replaces a console skill; builtin and berth.yaml ids are refused. */
  save(input: unknown, actor: SkillActor): SkillView {
    requireRole(actor, 'operator', 'change skills');
    const parsed = saveSkillInput.safeParse(input);
    if (!parsed.success) throw invalid(describeIssues(parsed.error.issues, ''));
    const { definition } = parsed.data;
    this.#editable(definition.id);
    const problem = paramsSchemaProblem(definition.paramsSchema);
    if (problem) throw invalid(`definition.paramsSchema: ${problem}`);
    const existed = this.#definitions.row(definition.id) !== undefined;
    const now = Date.now();
    const row = this.runs.saveDefinition({
      id: definition.id,
      definition: definition,
      createdBy: actor.email,
      createdAt: now,
      updatedAt: now
    });
    this.#definitions.store(row);
    this.#audit.record(actor, existed ? 'skill.update' : 'skill.create', definition.id, {
      kind: definition.kind
    });
    return activeView(this.#definitions.find(definition.id)!);
  }

  /**
   * A container skill running the image a succeeded build made: pinned to its image id (a
   * later build of the same tag does not change the skill), on the build's engine, with the
   * image's own command. Saved as a console skill, so it can be edited like one.
   */
  fromBuild(
    input: unknown,
    actor: SkillActor,
    builds: { get(actor: SkillActor, input: { id: string }): BuildSummary }
  ): SkillView {
    requireRole(actor, 'operator', 'change skills');
    const parsed = skillFromBuildInput.safeParse(input);
    if (!parsed.success) throw invalid(describeIssues(parsed.error.issues, ''));
    const { buildId, id, description } = parsed.data;
    const build = builds.get(actor, { id: buildId });
    if (build.status !== 'succeeded' || !build.imageId)
      throw invalid(`Build ${buildId} did not succeed: it made no image to run`);
    return this.save(
      {
        definition: {
          id,
          kind: 'container',
          engine: build.engine,
          image: build.imageId,
          description:
            description ?? `Runs ${build.tag}, built from ${build.workspaceName}/${build.buildFile}`
        }
      },
      actor
    );
  }

  remove(id: string, actor: SkillActor): void {
    requireRole(actor, 'operator', 'delete skills');
    if (this.#builtins.has(id))
      throw invalid(`Skill ${id} is built into Berth and cannot be deleted`);
    if (!this.#definitions.row(id)) {
      if (this.#definitions.inFile(id))
        throw invalid(`Skill ${id} is declared in the config file; remove it there`);
      throw notFound(`Skill ${id}`);
    }
    this.runs.deleteDefinition(id);
    this.#definitions.drop(id);
    this.#audit.record(actor, 'skill.delete', id);
  }

  /** The console's run: started (not awaited) in the user's name. */
  run(
    input: { id: string; params: Record<string, unknown> },
    actor: SkillActor
  ): { runId: string } {
    requireRole(actor, 'operator', 'run skills');
    const { runId } = this.start(input.id, input.params, {
      trigger: 'console',
      actor: actor.email
    });
    return { runId };
  }

  runsPage(input: unknown, actor: SkillActor): SkillRunsPage {
    requireRole(actor, 'viewer', 'read skill runs');
    const { skillId, cursor, limit } = skillRunsInput.parse(input);
    const rows = this.runs.page({ skillId }, limit + 1, decodeCursor(cursor));
    const { items, nextCursor } = paginate(rows, limit, (r) => [r.startedAt, r.id], toRecord);
    return { runs: items, nextCursor };
  }

  getRun(runId: string, actor: SkillActor): SkillRunRecord {
    requireRole(actor, 'viewer', 'read skill runs');
    return this.get(runId);
  }

  /**
   * Starts a run (committed as `running`), returns its record once done. Params failing the
   * skill's schema are INVALID naming the field; `signal` (a turn's) cancels the run.
   */
  start(
    id: string,
    rawParams: Record<string, unknown>,
    by: { trigger: string; actor: string | null },
    signal?: AbortSignal
  ): { runId: string; done: Promise<SkillRunRecord> } {
    const skill = this.#runnable(id);
    const params = skill.parse(rawParams);
    const started = Date.now();
    const run = this.runs.insert({
      id: uuidv7(),
      skillId: id,
      params: rawParams,
      status: 'running',
      trigger: by.trigger,
      actor: by.actor,
      startedAt: started
    });
    const timeout = AbortSignal.timeout(skill.timeoutMs);
    const abort = signal ? AbortSignal.any([timeout, signal]) : timeout;
    this.#feed.open(run.id);
    const log: SkillLog = (stream, text) => this.#feed.log(run.id, stream, text);
    const done = skill.run(params, run.id, abort, log).then(
      (result) => this.#finish(run.id, started, { status: 'completed', ...result, error: null }),
      (err: unknown) => {
        const error = timeout.aborted
          ? `timed out after ${skill.timeoutMs} ms`
          : signal?.aborted
            ? 'cancelled'
            : err instanceof Error
              ? err.message
              : String(err);
        log('system', error);
        const failure = err instanceof SkillFailure ? err : null;
        return this.#finish(run.id, started, {
          status: 'failed',
          exitCode: failure?.exitCode ?? null,
          output: failure?.output ?? null,
          error
        });
      }
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
      () => this.start(id, params, by, signal),
      () => signal?.aborted ?? false
    );
    if (!started) throw new Error('cancelled');
    const run = await started.done;
    if (run.status === 'failed') throw new SkillRunFailed(run);
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

  /** When recover() ran: runs started before it are a previous process's. */
  #recoveredAt = Infinity;

  /** Runs left `running` by a crash will never finish: they are failed at start. */
  recover(): number {
    this.#recoveredAt = Date.now();
    return this.runs.failRunning(this.#recoveredAt);
  }

  /**
   * Containers of runs a previous Berth never finished: removed (engines that answer). Only
   * those of runs recorded here and started before this process recovered: a container of
   * another Berth's run on a shared engine is its, and one this process started meanwhile (the
   * listing goes engine by engine while turns already run skills) is in use.
   */
  async removeLeftovers(): Promise<number> {
    const ours = (runId: string) => {
      const run = this.runs.byId(runId);
      return run !== undefined && run.startedAt < this.#recoveredAt;
    };
    return (await this.#runners.container.recover?.(ours)) ?? 0;
  }

  #notBuiltin(list: SkillDefinition[]): SkillDefinition[] {
    return list.filter((d) => !this.#builtins.has(d.id));
  }

  #editable(id: string): void {
    if (this.#builtins.has(id))
      throw invalid(`Skill ${id} is built into Berth and cannot be changed`);
    if (this.#definitions.inFile(id))
      throw invalid(`Skill ${id} is declared in the config file (read-only here); change it there`);
  }

  #runnable(id: string): Runnable {
    const builtin = this.#builtins.get(id);
    if (builtin)
      return {
        info: builtinInfo(builtin),
        timeoutMs: BUILTIN_TIMEOUT_MS,
        parse: (raw) => {
          const parsed = builtin.params.safeParse(raw);
          if (!parsed.success) throw invalid(describeIssues(parsed.error.issues));
          return parsed.data;
        },
        run: async (params, _runId, signal, log) => ({
          output: await builtin.run(params, signal, log),
          exitCode: 0
        })
      };
    const active = this.#definitions.find(id);
    if (!active) throw notFound(`Skill ${id}`);
    const def = active.definition;
    return {
      info: definedInfo(def),
      timeoutMs: def.timeoutMs,
      parse: (raw) => {
        const checked = checkParams(def.paramsSchema, raw);
        if (!checked.ok) throw invalid(checked.message);
        return checked.params;
      },
      run: (params, runId, signal, log) => {
        const context = { runId, signal, log };
        return def.kind === 'container'
          ? this.#runners.container.run(def, params, context)
          : this.#runners.http.run(def, params, context);
      }
    };
  }

  /** The result is recorded once storage takes it: a run is not lost to a locked database. */
  async #finish(
    id: string,
    started: number,
    result: SkillResult & { status: 'completed' | 'failed'; error: string | null }
  ): Promise<SkillRunRecord> {
    const finishedAt = Date.now();
    const lines = this.#feed.lines(id) ?? [];
    const text = lines.map((l) => `${l.stream === 'system' ? '[berth] ' : ''}${l.text}`).join('\n');
    const row = await whenStored(() =>
      this.runs.finish(id, {
        status: result.status,
        exitCode: result.exitCode,
        output: result.output ?? null,
        logs: text ? text.slice(-LOGS_MAX_CHARS) : null,
        error: result.error,
        finishedAt,
        durationMs: finishedAt - started
      })
    );
    const record = toRecord(row!);
    this.#feed.close(record);
    return record;
  }
}
