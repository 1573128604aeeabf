import { roleAtLeast, type Role } from '$lib/contracts/roles';
import type { EngineClient } from '../../engine/engine.client';
import type { EngineRegistry } from '../../engine/engine.registry';
import { forbidden } from '../../errors';
import type { Actor, AuditService } from '../audit/audit.service';

/** Who asks, with the role the engine services check (the adapters check it too). */
export interface EngineActor extends Actor {
  role: Role;
}

/**
 * The least-privilege gate every engine service goes through: viewers read, operators write,
 * and each write is audited with the engine and the object it touched.
 */
export class EngineAccess {
  constructor(
    readonly engines: EngineRegistry,
    private readonly audit: AuditService
  ) {}

  read(actor: EngineActor, engine: string): EngineClient {
    this.require(actor, 'viewer', 'read the engine');
    return this.engines.get(engine);
  }

  write(actor: EngineActor, engine: string): EngineClient {
    this.require(actor, 'operator', 'change the engine');
    return this.engines.get(engine);
  }

  require(actor: EngineActor, minimum: Role, doing: string): void {
    if (!roleAtLeast(actor.role, minimum)) throw forbidden(`Needs the ${minimum} role to ${doing}`);
  }

  /** Audits a write that went through: `engine.<kind>.<verb>` on `<engine>/<kind>/<object>`. */
  record(
    actor: EngineActor,
    engine: string,
    kind: string,
    verb: string,
    object: string,
    detail: Record<string, unknown> = {}
  ): void {
    this.audit.record(actor, `engine.${kind}.${verb}`, `${engine}/${kind}/${object}`, {
      engine,
      object,
      ...detail
    });
  }
}
