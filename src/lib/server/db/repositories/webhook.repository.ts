import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { webhookDeliveries, webhookMappings, webhookTokens } from '../schema';

export type WebhookMappingRow = typeof webhookMappings.$inferSelect;
export type WebhookTokenRow = typeof webhookTokens.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDeliveryRow = typeof webhookDeliveries.$inferInsert;

/** SQLite binds at most 32766 variables per statement; 14 columns × 500 rows stays well under. */
const INSERT_CHUNK = 500;

/** The console's webhook mappings and tokens, and the delivery log. */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  mappings(): WebhookMappingRow[] {
    return this.db.select().from(webhookMappings).orderBy(webhookMappings.name).all();
  }

  insertMapping(row: WebhookMappingRow): WebhookMappingRow {
    return this.db.insert(webhookMappings).values(row).returning().get();
  }

  updateMapping(name: string, patch: Partial<WebhookMappingRow>): WebhookMappingRow | undefined {
    return this.db
      .update(webhookMappings)
      .set(patch)
      .where(eq(webhookMappings.name, name))
      .returning()
      .get();
  }

  deleteMapping(name: string): boolean {
    return this.db.delete(webhookMappings).where(eq(webhookMappings.name, name)).run().changes > 0;
  }

  activeTokens(): WebhookTokenRow[] {
    return this.db.select().from(webhookTokens).where(isNull(webhookTokens.revokedAt)).all();
  }

  tokenByName(name: string): WebhookTokenRow | undefined {
    return this.db.select().from(webhookTokens).where(eq(webhookTokens.name, name)).get();
  }

  insertToken(row: typeof webhookTokens.$inferInsert): WebhookTokenRow {
    return this.db.insert(webhookTokens).values(row).returning().get();
  }

  updateToken(id: string, patch: Partial<WebhookTokenRow>): void {
    this.db.update(webhookTokens).set(patch).where(eq(webhookTokens.id, id)).run();
  }

  /** Deliveries of one tick in one transaction: one commit however many arrived. */
  insertDeliveries(rows: readonly NewDeliveryRow[]): number[] {
    return this.db.transaction(() => {
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const chunk = rows.slice(i, i + INSERT_CHUNK);
        for (const r of this.db
          .insert(webhookDeliveries)
          .values(chunk)
          .returning({ id: webhookDeliveries.id })
          .all())
          ids.push(r.id);
      }
      return ids;
    });
  }

  deliveries(filter: {
    mapping?: string;
    status?: number;
    before?: number;
    limit: number;
  }): DeliveryRow[] {
    const d = webhookDeliveries;
    return this.db
      .select()
      .from(d)
      .where(
        and(
          filter.mapping === undefined ? undefined : eq(d.mapping, filter.mapping),
          filter.status === undefined ? undefined : eq(d.status, filter.status),
          filter.before === undefined ? undefined : lt(d.id, filter.before)
        )
      )
      .orderBy(desc(d.id))
      .limit(filter.limit)
      .all();
  }

  delivery(id: number): DeliveryRow | undefined {
    return this.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
  }

  /** Drops rows received before `before`, and all but the newest `keep`. */
  pruneDeliveries(before: number, keep: number): number {
    const d = webhookDeliveries;
    let removed = this.db.delete(d).where(lt(d.receivedAt, before)).run().changes;
    const newest = this.db
      .select({ id: d.id })
      .from(d)
      .orderBy(desc(d.id))
      .limit(1)
      .offset(keep - 1)
      .get();
    if (newest) removed += this.db.delete(d).where(lt(d.id, newest.id)).run().changes;
    return removed;
  }

  deliveryCount(): number {
    return this.db
      .select({ n: sql<number>`count(*)` })
      .from(webhookDeliveries)
      .get()!.n;
  }
}
