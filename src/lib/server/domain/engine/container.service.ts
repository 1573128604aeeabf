import type { Duplex, Readable } from 'node:stream';
import type { z } from 'zod';
import type {
  ContainerCreate,
  ContainerLogs,
  containerListSchema,
  execCreateSchema
} from '$lib/contracts/engine';
import * as ops from '../../engine/containers';
import type { EngineAccess, EngineActor } from './engine-access';

/**
 * Options that reach past the container into the host: only an admin may set them. A bind
 * whose source is a path (starts with `/`) mounts the host's files; a named volume does not.
 */
export function hostReachingOptions(input: ContainerCreate): string[] {
  const found: string[] = [];
  if (input.privileged) found.push('privileged mode');
  if (input.binds.some((b) => b.startsWith('/'))) found.push('host-path binds');
  if (input.networkMode === 'host') found.push('the host network');
  if (input.pidMode === 'host') found.push('the host PID namespace');
  if (input.capAdd.length) found.push('added capabilities');
  return found;
}

type Action = 'start' | 'stop' | 'restart' | 'kill' | 'pause' | 'unpause';

/** Containers, as the console (tRPC) and the stream sources call them. */
export class ContainerService {
  constructor(private readonly access: EngineAccess) {}

  async list(actor: EngineActor, input: z.output<typeof containerListSchema>) {
    return ops.listContainers(this.access.read(actor, input.engine), input);
  }

  async create(actor: EngineActor, input: ContainerCreate) {
    const engine = this.access.write(actor, input.engine);
    const dangerous = hostReachingOptions(input);
    if (dangerous.length) this.access.require(actor, 'admin', `use ${dangerous.join(', ')}`);
    const created = await ops.createContainer(engine, input);
    this.access.record(actor, input.engine, 'container', 'create', input.name ?? created.id, {
      image: input.image,
      ...(dangerous.length && { hostReaching: dangerous })
    });
    return created;
  }

  /** start, stop (t), restart, kill (signal), pause, unpause; `changed: false` on a 304. */
  async act(
    actor: EngineActor,
    input: { engine: string; id: string; t?: number; signal?: string },
    action: Action
  ) {
    const engine = this.access.write(actor, input.engine);
    const query =
      action === 'stop' ? { t: input.t } : action === 'kill' ? { signal: input.signal } : undefined;
    const result = await ops.containerAction(engine, input.id, action, query);
    this.access.record(actor, input.engine, 'container', action, input.id, {
      changed: result.changed
    });
    return result;
  }

  inspect = async (actor: EngineActor, input: { engine: string; id: string }) =>
    ops.inspectContainer(this.access.read(actor, input.engine), input.id);
  top = async (actor: EngineActor, input: { engine: string; id: string }) =>
    ops.containerTop(this.access.read(actor, input.engine), input.id);
  changes = async (actor: EngineActor, input: { engine: string; id: string }) =>
    ops.containerChanges(this.access.read(actor, input.engine), input.id);
  stats = async (actor: EngineActor, input: { engine: string; id: string }) =>
    ops.containerStatsOnce(this.access.read(actor, input.engine), input.id);

  /** The raw stats stream (E2's stream sources parse it). */
  async statsStream(actor: EngineActor, input: { engine: string; id: string }): Promise<Readable> {
    return ops.containerStatsStream(this.access.read(actor, input.engine), input.id);
  }

  /** The raw log stream (multiplexed frames unless TTY). */
  async logs(actor: EngineActor, input: ContainerLogs): Promise<Readable> {
    return ops.containerLogs(this.access.read(actor, input.engine), input);
  }

  /** Running a command in a container is a write: operators, audited with the command. */
  async exec(
    actor: EngineActor,
    input: z.output<typeof execCreateSchema>
  ): Promise<{ execId: string; stream: Duplex }> {
    const engine = this.access.write(actor, input.engine);
    const execId = await ops.createExec(engine, input.id, input.cmd, input);
    this.access.record(actor, input.engine, 'container', 'exec', input.id, { cmd: input.cmd });
    return { execId, stream: await ops.startExec(engine, execId, input.tty) };
  }

  /** Resizes an exec's TTY; an operator's, as the exec itself (not audited: it changes nothing). */
  async resizeExec(
    actor: EngineActor,
    input: { engine: string; execId: string; cols: number; rows: number }
  ) {
    const engine = this.access.write(actor, input.engine);
    await ops.resizeExec(engine, input.execId, input.cols, input.rows);
  }

  /** Whether an exec runs, and its exit code once ended. */
  execState = async (actor: EngineActor, input: { engine: string; execId: string }) =>
    ops.inspectExec(this.access.read(actor, input.engine), input.execId);

  async remove(
    actor: EngineActor,
    input: { engine: string; id: string; force: boolean; v: boolean }
  ) {
    const engine = this.access.write(actor, input.engine);
    await ops.removeContainer(engine, input.id, input.force, input.v);
    this.access.record(actor, input.engine, 'container', 'remove', input.id, {
      force: input.force,
      v: input.v
    });
  }

  async prune(actor: EngineActor, input: { engine: string; label?: string[] }) {
    const engine = this.access.write(actor, input.engine);
    const report = await ops.pruneContainers(engine, input.label);
    this.access.record(actor, input.engine, 'container', 'prune', '*', report);
    return report;
  }
}
