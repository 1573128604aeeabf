import { desc, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { auditLog } from '../schema';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export class AuditRepository {
  constructor(private readonly db: Db) {}

  insert(row: NewAuditRow): AuditRow {
    return this.db.insert(auditLog).values(row).returning().get();
  }

  page(limit: number, before?: number): AuditRow[] {
    const q = this.db.select().from(auditLog);
    return (before === undefined ? q : q.where(lt(auditLog.id, before)))
      .orderBy(desc(auditLog.id))
      .limit(limit)
      .all();
  }
}
