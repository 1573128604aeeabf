import type { AuditEntry, AuditFilter } from '$lib/contracts/audit';
import type { AuditRepository, AuditRow } from '../../db/repositories/audit.repository';
import type { DomainBus } from '../bus';

export interface Actor {
  id: string | null;
  email: string | null;
  ip: string | null;
}

export const SYSTEM_ACTOR: Actor = { id: null, email: 'system', ip: null };

export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly bus: DomainBus
  ) {}

  record(
    actor: Actor,
    action: string,
    target: string | null,
    detail?: Record<string, unknown>
  ): AuditEntry {
    const row = this.repo.insert({
      at: Date.now(),
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      target,
      detail: detail ?? null,
      ip: actor.ip
    });
    const entry = toEntry(row);
    this.bus.emit('audit.appended', entry);
    return entry;
  }

  list(limit: number, before?: number, filter: AuditFilter = {}): AuditEntry[] {
    return this.repo.page(limit, before, filter).map(toEntry);
  }
}

function toEntry(row: AuditRow): AuditEntry {
  return { ...row, detail: row.detail ?? null };
}
