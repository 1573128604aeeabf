import type { Readable } from 'node:stream';
import type {
  BuildDetail,
  BuildLine,
  BuildStart,
  BuildStatus,
  BuildSummary
} from '$lib/contracts/buildfiles';
import { buildModel } from '$lib/buildfile/model';
import { parse } from '$lib/buildfile/parser';
import type {
  BuildFileRepository,
  BuildRow,
  BuildSummaryRow
} from '../../db/repositories/buildfile.repository';
import { buildImage } from '../../engine/images';
import { JsonLines } from '../../engine/json-lines';
import { conflict, invalid, notFound } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { EngineAccess, EngineActor } from '../engine/engine-access';
import { uuidv7 } from '../ids';
import { packContext } from './build-context';
import { BuildOutput } from './build-output';
import { requireRole, type WorkspaceService } from './workspace.service';

/** Finished builds whose output stays in memory for a late joiner (the history has the log). */
const RECENT = 20;

export interface BuildFollower {
  lines(batch: BuildLine[]): void;
  ended(build: BuildSummary): void;
}

interface Run {
  row: BuildRow;
  output: BuildOutput;
  response: Readable | null;
  context: Readable;
  ended: BuildSummary | null;
  cancelledBy: string | null;
  followers: Set<BuildFollower>;
}

/**
 * Builds of a workspace on an engine. The context is streamed from the workspace (ignore file
 * applied); the engine's progress becomes printed lines with step markers, followed live over
 * the realtime channel `build.output:<id>` and kept (capped) in the history. A cancel closes
 * the engine request: the engine then stops the step and removes its container (forcerm).
 */
export class BuildService {
  readonly #runs = new Map<string, Run>();

  constructor(
    private readonly repo: BuildFileRepository,
    private readonly workspaces: WorkspaceService,
    private readonly access: EngineAccess,
    private readonly audit: AuditService
  ) {}

  /** At start: builds a previous Berth left running cannot be followed any more. */
  recover(): number {
    return this.repo.failInterrupted(Date.now());
  }

  async start(actor: EngineActor, input: BuildStart): Promise<BuildSummary> {
    requireRole(actor, 'operator', 'build images');
    const workspace = this.workspaces.get(input.workspace);
    const fs = this.workspaces.files(actor, workspace.id);
    const source = await fs.read(input.buildFile).catch((err: Error) => {
      throw err.name === 'DomainError' && (err as { code?: string }).code === 'NOT_FOUND'
        ? invalid(`${input.buildFile} does not exist in ${workspace.name}`)
        : err;
    });
    const parsed = parse(source);
    if (input.target) {
      const model = buildModel(parsed);
      const wanted = input.target.toLowerCase();
      if (!model.stages.some((s) => s.name?.toLowerCase() === wanted))
        throw invalid(`${input.buildFile} has no stage named ${input.target}`);
    }
    const engine = this.access.write(actor, input.engine);
    const now = Date.now();
    const row: BuildRow = {
      id: uuidv7(now),
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      buildFile: input.buildFile,
      tag: input.tag,
      engine: input.engine,
      target: input.target ?? null,
      userId: actor.id,
      userEmail: actor.email,
      startedAt: now,
      endedAt: null,
      status: 'running',
      error: null,
      failedStep: null,
      failedLine: null,
      imageId: null,
      log: '',
      logTruncated: false
    };
    // Step N of the classic builder is the Nth instruction of the file (global ARGs included);
    // the engine's own last step (the `labels` option as a LABEL) matches none.
    const output = new BuildOutput((n, instruction) => {
      const at = parsed.instructions[n - 1];
      const keyword = instruction.split(/\s/, 1)[0]!.toLowerCase();
      return at && at.name === keyword ? at.range.line : undefined;
    });
    const context = await packContext(fs, input.buildFile);
    const run: Run = {
      row,
      output,
      response: null,
      context,
      ended: null,
      cancelledBy: null,
      followers: new Set()
    };
    this.repo.insertBuild(row);
    this.#runs.set(row.id, run);
    this.workspaces.building.set(
      workspace.id,
      (this.workspaces.building.get(workspace.id) ?? 0) + 1
    );
    this.audit.record(actor, 'buildfiles.build.start', `${input.engine}/build/${row.id}`, {
      engine: input.engine,
      workspace: workspace.name,
      buildFile: input.buildFile,
      tag: input.tag,
      target: input.target ?? null,
      buildArgs: Object.keys(input.buildArgs),
      noCache: input.noCache,
      pull: input.pull
    });
    output.note(
      'status',
      `Building ${input.tag} from ${workspace.name}/${input.buildFile} on ${input.engine}`
    );
    output.listen((batch) => {
      for (const f of run.followers) f.lines(batch);
    });
    try {
      run.response = await buildImage(engine, context, {
        t: input.tag,
        buildfile: input.buildFile,
        buildargs: input.buildArgs,
        labels: { 'berth.build': row.id },
        target: input.target,
        nocache: input.noCache,
        pull: input.pull
      });
    } catch (err) {
      context.destroy();
      // Cancelled while the context was still uploading: the request failed because of it.
      if (run.ended) return run.ended;
      this.#finish(run, 'failed', (err as Error).message);
      throw err;
    }
    if (run.ended) run.response.destroy();
    else this.#follow(run, run.response);
    return this.#summary(run.ended ? { ...row, ...run.ended } : row);
  }

  cancel(actor: EngineActor, input: { id: string }): BuildSummary {
    requireRole(actor, 'operator', 'cancel builds');
    const run = this.#runs.get(input.id);
    if (!run) {
      const row = this.repo.build(input.id);
      if (!row) throw notFound(`build ${input.id}`);
      throw conflict(`the build is not running (${row.status})`);
    }
    if (run.ended) throw conflict(`the build is not running (${run.ended.status})`);
    run.cancelledBy = actor.email;
    this.audit.record(actor, 'buildfiles.build.cancel', `${run.row.engine}/build/${run.row.id}`, {
      engine: run.row.engine,
      tag: run.row.tag
    });
    run.output.note('error', `Cancelled by ${actor.email ?? 'a user'}`);
    // Closing the request is what makes the engine stop: it kills and removes the step's container.
    run.response?.destroy();
    run.context.destroy();
    return this.#finish(run, 'cancelled', 'cancelled');
  }

  list(actor: EngineActor, input: { workspace?: string; limit: number }): BuildSummary[] {
    requireRole(actor, 'viewer', 'see builds');
    return this.repo.listBuilds(input.workspace, input.limit).map((r) => this.#summary(r));
  }

  get(actor: EngineActor, input: { id: string }): BuildDetail {
    requireRole(actor, 'viewer', 'see builds');
    const run = this.#runs.get(input.id);
    const row = this.repo.build(input.id);
    if (!row) throw notFound(`build ${input.id}`);
    // A running build's log is in memory until it ends.
    const log = run && !run.ended ? run.output.log : row.log;
    return { ...this.#summary(row), log };
  }

  /**
   * What a build printed so far (its last lines kept) and its end when it ended. A build no
   * longer in memory has only its end here: its log is in `get`.
   */
  snapshot(id: string): { lines: BuildLine[]; ended: BuildSummary | null } {
    const run = this.#runs.get(id);
    if (run) return { lines: [...run.output.ring], ended: run.ended };
    const row = this.repo.build(id);
    if (!row) throw notFound(`build ${id}`);
    return { lines: [], ended: this.#summary(row) };
  }

  /** Every line printed from now on, then the end; nothing for a build that ended. */
  follow(id: string, follower: BuildFollower): () => void {
    const run = this.#runs.get(id);
    if (!run || run.ended) return () => {};
    run.followers.add(follower);
    return () => run.followers.delete(follower);
  }

  #follow(run: Run, response: Readable): void {
    const lines = new JsonLines();
    response.on('data', (chunk: Buffer) => {
      try {
        run.output.push(lines.push(chunk));
      } catch {
        run.output.note('error', 'the engine sent progress Berth could not read');
        response.destroy();
      }
    });
    response.once('end', () => {
      try {
        run.output.push(lines.end());
      } catch {
        /* a torn last line: the end decides */
      }
      run.output.end();
      const { error, imageId } = run.output;
      if (error) this.#finish(run, 'failed', error);
      else if (!imageId) this.#finish(run, 'failed', 'the engine ended the build without an image');
      else this.#finish(run, 'succeeded', null);
    });
    response.once('error', () => this.#finish(run, 'failed', 'the engine dropped the build'));
    response.once('close', () => this.#finish(run, 'failed', 'the engine dropped the build'));
  }

  #finish(run: Run, status: BuildStatus, error: string | null): BuildSummary {
    if (run.ended) return run.ended;
    const endedAt = Date.now();
    const failedAt = status === 'failed' && run.output.step ? run.output.step : null;
    const message =
      error && failedAt
        ? `${failedAt.text}${failedAt.line ? ` (line ${failedAt.line})` : ''}: ${error}`
        : error;
    if (status === 'failed' && message) run.output.note('error', `Build failed: ${message}`);
    if (status === 'succeeded')
      run.output.note('status', `Built ${run.row.tag} (${run.output.imageId})`);
    const end = {
      status,
      endedAt,
      error: message,
      failedStep: failedAt?.n ?? null,
      failedLine: failedAt?.line ?? null,
      imageId: status === 'succeeded' ? run.output.imageId : null,
      log: run.output.log,
      logTruncated: run.output.logTruncated
    };
    run.ended = this.#summary({ ...run.row, ...end });
    try {
      this.repo.finishBuild(run.row.id, end);
    } finally {
      const count = (this.workspaces.building.get(run.row.workspaceId) ?? 1) - 1;
      if (count > 0) this.workspaces.building.set(run.row.workspaceId, count);
      else this.workspaces.building.delete(run.row.workspaceId);
      for (const f of run.followers) f.ended(run.ended);
      run.followers.clear();
      this.#forgetOld();
    }
    return run.ended;
  }

  /** Keeps the output of the last RECENT finished builds in memory. */
  #forgetOld(): void {
    const finished = [...this.#runs.values()].filter((r) => r.ended);
    for (const r of finished.slice(0, Math.max(0, finished.length - RECENT)))
      this.#runs.delete(r.row.id);
  }

  #summary(row: BuildSummaryRow): BuildSummary {
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      workspaceName: row.workspaceName,
      buildFile: row.buildFile,
      tag: row.tag,
      engine: row.engine,
      target: row.target,
      userEmail: row.userEmail,
      startedAt: row.startedAt,
      endedAt: row.endedAt,
      durationMs: row.endedAt === null ? null : row.endedAt - row.startedAt,
      status: row.status as BuildStatus,
      error: row.error,
      failedStep: row.failedStep,
      failedLine: row.failedLine,
      imageId: row.imageId,
      logTruncated: row.logTruncated
    };
  }
}
