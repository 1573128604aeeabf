import * as ops from '../../engine/volumes';
import type { EngineAccess, EngineActor } from './engine-access';

type Ref = { engine: string; name: string };

/** Volumes: viewers read, operators change, every change audited. */
export class VolumeService {
  constructor(private readonly access: EngineAccess) {}

  list = async (
    actor: EngineActor,
    input: { engine: string; dangling?: boolean; label?: string[] }
  ) => ops.listVolumes(this.access.read(actor, input.engine), input);
  inspect = async (actor: EngineActor, input: Ref) =>
    ops.inspectVolume(this.access.read(actor, input.engine), input.name);

  async create(
    actor: EngineActor,
    input: Ref & {
      driver: string;
      driverOpts: Record<string, string>;
      labels: Record<string, string>;
    }
  ) {
    const created = await ops.createVolume(this.access.write(actor, input.engine), input);
    this.access.record(actor, input.engine, 'volume', 'create', input.name, {
      driver: input.driver
    });
    return created;
  }

  async remove(actor: EngineActor, input: Ref) {
    await ops.removeVolume(this.access.write(actor, input.engine), input.name);
    this.access.record(actor, input.engine, 'volume', 'remove', input.name);
  }

  async prune(actor: EngineActor, input: { engine: string; label?: string[] }) {
    const report = await ops.pruneVolumes(this.access.write(actor, input.engine), input.label);
    this.access.record(actor, input.engine, 'volume', 'prune', '*', report);
    return report;
  }
}
