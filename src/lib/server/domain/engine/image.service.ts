import type { Readable } from 'node:stream';
import * as ops from '../../engine/images';
import type { EngineAccess, EngineActor } from './engine-access';
import { untilDone } from './progress';
import { registryAuthFor, type RegistryCredential } from './registry-auth';

/** Images. Registry credentials stay here: the browser never sees them. */
export class ImageService {
  constructor(
    private readonly access: EngineAccess,
    private readonly registries: () => readonly RegistryCredential[]
  ) {}

  async list(actor: EngineActor, input: { engine: string; dangling?: boolean }) {
    return ops.listImages(this.access.read(actor, input.engine), input.dangling);
  }

  inspect = async (actor: EngineActor, input: { engine: string; name: string }) =>
    ops.inspectImage(this.access.read(actor, input.engine), input.name);
  history = async (actor: EngineActor, input: { engine: string; name: string }) =>
    ops.imageHistory(this.access.read(actor, input.engine), input.name);

  /** The pull's progress stream; an `{error}` line in it means the pull failed. */
  async pull(
    actor: EngineActor,
    input: { engine: string; fromImage: string; tag: string }
  ): Promise<Readable> {
    const engine = this.access.write(actor, input.engine);
    const auth = registryAuthFor(input.fromImage, this.registries());
    const stream = await ops.pullImage(engine, input.fromImage, input.tag, auth);
    this.access.record(actor, input.engine, 'image', 'pull', `${input.fromImage}:${input.tag}`, {
      authenticated: auth !== undefined
    });
    return stream;
  }

  /** A pull read to its end: its last status line, or CONFLICT with the engine's error. */
  async pullAndWait(actor: EngineActor, input: { engine: string; fromImage: string; tag: string }) {
    const stream = await this.pull(actor, input);
    const { last } = await untilDone(stream, `pull of ${input.fromImage}:${input.tag}`);
    return { status: last };
  }

  /** Builds from a tar stream; the build-file studio drives it. */
  async build(
    actor: EngineActor,
    input: {
      engine: string;
      t: string;
      buildfile?: string;
      buildargs?: Record<string, string>;
      labels?: Record<string, string>;
    },
    context: NodeJS.ReadableStream
  ): Promise<Readable> {
    const engine = this.access.write(actor, input.engine);
    const stream = await ops.buildImage(engine, context, input);
    this.access.record(actor, input.engine, 'image', 'build', input.t);
    return stream;
  }

  async remove(
    actor: EngineActor,
    input: { engine: string; name: string; force: boolean; noprune: boolean }
  ) {
    const engine = this.access.write(actor, input.engine);
    const result = await ops.removeImage(engine, input.name, input.force, input.noprune);
    this.access.record(actor, input.engine, 'image', 'remove', input.name, { force: input.force });
    return result;
  }

  async prune(actor: EngineActor, input: { engine: string; label?: string[] }) {
    const report = await ops.pruneImages(this.access.write(actor, input.engine), input.label);
    this.access.record(actor, input.engine, 'image', 'prune', '*', report);
    return report;
  }
}
