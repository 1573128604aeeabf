import type { Readable } from 'node:stream';
import type { PruneReport } from '$lib/contracts/engine';
import type { EngineSummary } from '../../engine/engine.registry';
import * as ops from '../../engine/system';
import type { EngineAccess, EngineActor } from './engine-access';

/** The engines themselves: health, info, version, disk usage, events, system prune. */
export class EngineSystemService {
  constructor(private readonly access: EngineAccess) {}

  /** Every engine with its health and pinned API version (never its key material). */
  async engines(actor: EngineActor): Promise<EngineSummary[]> {
    this.access.require(actor, 'viewer', 'read the engine');
    return this.access.engines.health();
  }

  info = async (actor: EngineActor, input: { engine: string }) =>
    ops.engineInfo(this.access.read(actor, input.engine));
  version = async (actor: EngineActor, input: { engine: string }) =>
    ops.engineVersion(this.access.read(actor, input.engine));
  ping = async (actor: EngineActor, input: { engine: string }) =>
    ops.ping(this.access.read(actor, input.engine));
  diskUsage = async (actor: EngineActor, input: { engine: string }) =>
    ops.diskUsage(this.access.read(actor, input.engine));

  /** The raw event stream (JSON lines). */
  async events(
    actor: EngineActor,
    input: { engine: string; since?: number; until?: number; type?: string[]; event?: string[] }
  ): Promise<Readable> {
    return ops.engineEvents(this.access.read(actor, input.engine), input);
  }

  async prune(
    actor: EngineActor,
    input: {
      engine: string;
      containers: boolean;
      images: boolean;
      networks: boolean;
      volumes: boolean;
      label?: string[];
    }
  ): Promise<PruneReport> {
    const engine = this.access.write(actor, input.engine);
    const { engine: name, ...what } = input;
    const report = await ops.systemPrune(engine, what);
    this.access.record(actor, name, 'system', 'prune', '*', { ...what, ...report });
    return report;
  }
}
