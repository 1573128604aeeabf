import { roleAtLeast, type Role } from '$lib/contracts/roles';
import { forbidden } from '../../errors';
import type { Actor } from '../audit/audit.service';

/** Who asks, with the role the skill services check (the tRPC router checks it too). */
export interface SkillActor extends Actor {
  role: Role;
}

export function requireRole(actor: SkillActor, minimum: Role, doing: string): void {
  if (!roleAtLeast(actor.role, minimum)) throw forbidden(`Needs the ${minimum} role to ${doing}`);
}
