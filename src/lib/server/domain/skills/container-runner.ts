import type { Duplex } from 'node:stream';
import type { SkillDefinition } from '$lib/contracts/skills';
import { containerAction, listContainers, removeContainer } from '../../engine/containers';
import type { EngineClient } from '../../engine/engine.client';
import type { EngineRegistry } from '../../engine/engine.registry';
import { pullImage } from '../../engine/images';
import {
  attachOneShot,
  createOneShot,
  waitOneShot,
  type OneShotCreate
} from '../../engine/oneshot';
import { StreamDemuxer } from '../../engine/stream-demux';
import { DomainError } from '../../errors';
import { untilDone } from '../engine/progress';
import { registryAuthFor, type RegistryCredential } from '../engine/registry-auth';
import { SkillFailure, type SkillResult, type SkillRunner } from './skill-runner';

type ContainerSkill = Extract<SkillDefinition, { kind: 'container' }>;

/** Every container a skill run makes carries these; a restart removes leftovers by the second. */
export const SKILL_LABEL = 'berth.skill';
export const RUN_LABEL = 'berth.skill.run';

/** `PARAM_<NAME>`: the name upper-cased, any character outside A-Z, 0-9 and _ made `_`. */
export function paramEnv(params: Record<string, unknown>): string[] {
  return Object.entries(params).map(([name, value]) => {
    const key = `PARAM_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
    return `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
  });
}

/** stdout as the result: JSON when it parses, the text otherwise. */
function result(stdout: string): unknown {
  const text = stdout.trim();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return stdout;
  }
}

/**
 * Runs a container skill as `docker run --rm -i` would: the params as environment variables
 * and as JSON on stdin, stdout kept as the result (up to its limit), stderr streamed live as
 * log lines. The container is removed whatever happens: ended, failed, timed out or cancelled.
 */
export class ContainerRunner implements SkillRunner<ContainerSkill> {
  constructor(
    private readonly engines: EngineRegistry,
    /** Registry credentials kept on the server, for pulling an image the engine lacks. */
    private readonly registries: () => readonly RegistryCredential[] = () => []
  ) {}

  async run(
    def: ContainerSkill,
    params: Record<string, unknown>,
    { runId, signal, log }: Parameters<SkillRunner['run']>[2]
  ): Promise<SkillResult> {
    const engine = this.engines.get(def.engine);
    signal.throwIfAborted();
    const spec: OneShotCreate = {
      image: def.image,
      cmd: def.command,
      env: paramEnv(params),
      labels: { [SKILL_LABEL]: def.id, [RUN_LABEL]: runId },
      memoryBytes: def.memoryMb * 1024 * 1024,
      nanoCpus: Math.round(def.cpus * 1e9),
      network: def.network
    };
    let id: string;
    try {
      id = await createOneShot(engine, spec);
    } catch (err) {
      // As `docker run` does: an image the engine lacks is pulled first (within the run's time).
      if (!(
        err instanceof DomainError &&
        err.code === 'NOT_FOUND' &&
        /no such image/.test(err.message)
      ))
        throw err;
      await this.#pull(engine, def.image, signal, log);
      id = await createOneShot(engine, spec);
    }
    try {
      return await this.#attached(engine, id, def, params, signal, log);
    } finally {
      await removeContainer(engine, id, true, true).catch(() => {
        // Already gone (or the engine went away): recover() removes it at the next start.
      });
    }
  }

  /** Pulls `image` with the credentials kept for its registry; told in the run's log. */
  async #pull(
    engine: EngineClient,
    image: string,
    signal: AbortSignal,
    log: Parameters<SkillRunner['run']>[2]['log']
  ): Promise<void> {
    const { name, tag } = splitReference(image);
    log('system', `pulling ${image}: the engine does not have it`);
    const stream = await pullImage(
      engine,
      name,
      tag,
      registryAuthFor(name, this.registries())
    ).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === 'NOT_FOUND')
        throw new DomainError('NOT_FOUND', `no such image ${image}, here or in its registry`);
      throw err;
    });
    // A time-out or cancel that came while the engine answered ends the pull at once too.
    const onAbort = () => stream.destroy(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { last } = await untilDone(stream, `pull of ${image}`);
      signal.throwIfAborted();
      log('system', last || `pulled ${image}`);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * At start: containers of runs a previous Berth never finished, on every engine. Only runs
   * `ours` knows (this Berth's records): another Berth on the same engine keeps its running
   * skills.
   */
  async recover(ours: (runId: string) => boolean): Promise<number> {
    let removed = 0;
    for (const name of this.engines.names()) {
      try {
        const engine = this.engines.get(name);
        const left = await listContainers(engine, { all: true, filters: { label: [RUN_LABEL] } });
        for (const c of left) {
          const runId = c.Labels[RUN_LABEL];
          if (!runId || !ours(runId)) continue;
          await removeContainer(engine, c.Id, true, true);
          removed++;
        }
      } catch {
        // An engine that is not reachable now keeps its leftovers until a later start.
      }
    }
    return removed;
  }

  async #attached(
    engine: EngineClient,
    id: string,
    def: ContainerSkill,
    params: Record<string, unknown>,
    signal: AbortSignal,
    log: Parameters<SkillRunner['run']>[2]['log']
  ): Promise<SkillResult> {
    const stream = await attachOneShot(engine, id);
    const exited = waitOneShot(engine, id, def.timeoutMs + 30_000);
    // A wait that fails after the run ended (the container removed) is no one's concern.
    exited.catch(() => {});
    const output = this.#collect(stream, def.outputMaxBytes, log);
    // It may fail (too much output) before it is awaited below; it is awaited there.
    output.catch(() => {});
    const stop = new Promise<never>((_, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    stop.catch(() => {});
    try {
      await Promise.race([containerAction(engine, id, 'start'), stop]);
      stream.end(`${JSON.stringify(params)}\n`);
      const stdout = await Promise.race([output, stop]);
      const exitCode = await Promise.race([exited, stop]);
      if (exitCode !== 0)
        throw new SkillFailure(`exited with code ${exitCode}`, exitCode, result(stdout));
      return { output: result(stdout), exitCode };
    } finally {
      stream.destroy();
    }
  }

  /** stdout up to `max` bytes (more fails the run); each stderr line to the live log. */
  #collect(stream: Duplex, max: number, log: Parameters<SkillRunner['run']>[2]['log']) {
    return new Promise<string>((resolve, reject) => {
      // A line longer than the limit is cut just past it, so it is caught without buffering more.
      const demux = new StreamDemuxer({ mode: 'multiplexed', maxLineBytes: max + 1 });
      const out: string[] = [];
      let bytes = 0;
      const take = (records: ReturnType<StreamDemuxer['push']>) => {
        for (const r of records) {
          if (r.stream === 'stderr') {
            log('stderr', r.line);
            continue;
          }
          bytes += Buffer.byteLength(r.line) + 1;
          if (bytes > max + 1) {
            stream.destroy();
            reject(new SkillFailure(`output exceeded ${max} bytes`));
            return;
          }
          out.push(r.line);
        }
      };
      stream.on('data', (chunk: Buffer) => take(demux.push(chunk)));
      // A hijacked socket may close without an 'end' (the engine dropped it): what came counts.
      const finish = () => {
        take(demux.end());
        resolve(out.join('\n'));
      };
      stream.on('end', finish);
      stream.on('close', finish);
      // A container that exits without reading stdin breaks the pipe under the params written
      // to it: the output so far stands, and the exit code says how the run went.
      stream.on('error', (err: NodeJS.ErrnoException) =>
        err.code === 'EPIPE' || err.code === 'ECONNRESET' ? finish() : reject(err)
      );
    });
  }
}

/**
 * An image reference as the engine's pull takes it: the name, and the tag or digest (`latest`
 * when none is given). The tag's colon is the one after the last `/` (a registry's port is not).
 */
export function splitReference(image: string): { name: string; tag: string } {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), tag: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/'))
    return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image, tag: 'latest' };
}
