import * as ops from '../../engine/networks';
import type { EngineAccess, EngineActor } from './engine-access';

type Ref = { engine: string; id: string };

/** Networks: viewers read, operators change, every change audited. */
export class NetworkService {
  constructor(private readonly access: EngineAccess) {}

  list = async (actor: EngineActor, input: { engine: string }) =>
    ops.listNetworks(this.access.read(actor, input.engine));
  inspect = async (actor: EngineActor, input: Ref) =>
    ops.inspectNetwork(this.access.read(actor, input.engine), input.id);

  async create(
    actor: EngineActor,
    input: {
      engine: string;
      name: string;
      driver: string;
      subnet?: string;
      gateway?: string;
      labels: Record<string, string>;
    }
  ) {
    const created = await ops.createNetwork(this.access.write(actor, input.engine), input);
    this.access.record(actor, input.engine, 'network', 'create', input.name, {
      driver: input.driver,
      subnet: input.subnet ?? null
    });
    return created;
  }

  async connect(actor: EngineActor, input: Ref & { container: string; ipv4Address?: string }) {
    await ops.connectNetwork(
      this.access.write(actor, input.engine),
      input.id,
      input.container,
      input.ipv4Address
    );
    this.access.record(actor, input.engine, 'network', 'connect', input.id, {
      container: input.container,
      ipv4Address: input.ipv4Address ?? null
    });
  }

  async disconnect(actor: EngineActor, input: Ref & { container: string; force: boolean }) {
    await ops.disconnectNetwork(
      this.access.write(actor, input.engine),
      input.id,
      input.container,
      input.force
    );
    this.access.record(actor, input.engine, 'network', 'disconnect', input.id, {
      container: input.container
    });
  }

  async remove(actor: EngineActor, input: Ref) {
    await ops.removeNetwork(this.access.write(actor, input.engine), input.id);
    this.access.record(actor, input.engine, 'network', 'remove', input.id);
  }

  async prune(actor: EngineActor, input: { engine: string; label?: string[] }) {
    const report = await ops.pruneNetworks(this.access.write(actor, input.engine), input.label);
    this.access.record(actor, input.engine, 'network', 'prune', '*', report);
    return report;
  }
}
