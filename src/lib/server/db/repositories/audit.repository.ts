import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditFilter } from '$lib/contracts/audit';
import { containsText, startsWith } from './like';
import type { Db } from '../client';
import { auditLog } from '../schema';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export class AuditRepository {
  constructor(private readonly db: Db) {}

  insert(row: NewAuditRow): AuditRow {
    return this.db.insert(auditLog).values(row).returning().get();
  }

  page(limit: number, before?: number, filter: AuditFilter = {}): AuditRow[] {
    const conditions: SQL[] = [];
    if (before !== undefined) conditions.push(lt(auditLog.id, before));
    if (filter.action)
      conditions.push(
        or(eq(auditLog.action, filter.action), startsWith(auditLog.action, `${filter.action}.`))!
      );
    if (filter.search) {
      const text = sql`coalesce(${auditLog.actorEmail}, '') || ' ' || ${auditLog.action} || ' ' || coalesce(${auditLog.target}, '') || ' ' || coalesce(${auditLog.detail}, '')`;
      conditions.push(containsText(text, filter.search));
    }
    return this.db
      .select()
      .from(auditLog)
      .where(and(...conditions))
      .orderBy(desc(auditLog.id))
      .limit(limit)
      .all();
  }
}
