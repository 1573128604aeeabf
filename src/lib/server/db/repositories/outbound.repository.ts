import { and, asc, desc, eq, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { outboundAttempts, outboundDeliveries, outboundWebhooks } from '../schema';

export type OutboundWebhookRow = typeof outboundWebhooks.$inferSelect;
export type OutboundDeliveryRow = typeof outboundDeliveries.$inferSelect;
export type OutboundAttemptRow = typeof outboundAttempts.$inferSelect;

export class OutboundRepository {
  constructor(private readonly db: Db) {}

  webhooks(agentName?: string): OutboundWebhookRow[] {
    return this.db
      .select()
      .from(outboundWebhooks)
      .where(agentName ? eq(outboundWebhooks.agentName, agentName) : undefined)
      .orderBy(asc(outboundWebhooks.createdAt))
      .all();
  }

  webhook(id: string): OutboundWebhookRow | undefined {
    return this.db.select().from(outboundWebhooks).where(eq(outboundWebhooks.id, id)).get();
  }

  addWebhook(row: typeof outboundWebhooks.$inferInsert): OutboundWebhookRow {
    return this.db.insert(outboundWebhooks).values(row).returning().get();
  }

  removeWebhook(id: string): OutboundWebhookRow | undefined {
    return this.db.delete(outboundWebhooks).where(eq(outboundWebhooks.id, id)).returning().get();
  }

  removeWebhooksOf(agentName: string): number {
    return this.db.delete(outboundWebhooks).where(eq(outboundWebhooks.agentName, agentName)).run()
      .changes;
  }

  queue(rows: (typeof outboundDeliveries.$inferInsert)[]): void {
    if (rows.length) this.db.insert(outboundDeliveries).values(rows).run();
  }

  delivery(id: string): OutboundDeliveryRow | undefined {
    return this.db.select().from(outboundDeliveries).where(eq(outboundDeliveries.id, id)).get();
  }

  /** Pending deliveries due by `now`, oldest first, at most `limit`, skipping those in flight. */
  due(now: number, limit: number, inFlight: ReadonlySet<string>): OutboundDeliveryRow[] {
    return this.db
      .select()
      .from(outboundDeliveries)
      .where(and(eq(outboundDeliveries.state, 'pending'), lte(outboundDeliveries.nextAt, now)))
      .orderBy(asc(outboundDeliveries.nextAt))
      .limit(limit + inFlight.size)
      .all()
      .filter((row) => !inFlight.has(row.id))
      .slice(0, limit);
  }

  /** When the next pending delivery not being sent is due (null when none waits). */
  nextDue(inFlight: ReadonlySet<string>): number | null {
    const next = this.db
      .select({ id: outboundDeliveries.id, at: outboundDeliveries.nextAt })
      .from(outboundDeliveries)
      .where(and(eq(outboundDeliveries.state, 'pending'), isNotNull(outboundDeliveries.nextAt)))
      .orderBy(asc(outboundDeliveries.nextAt))
      .limit(inFlight.size + 1)
      .all()
      .find((row) => !inFlight.has(row.id));
    return next?.at ?? null;
  }

  /** One try recorded and its outcome applied, together. */
  recordAttempt(
    id: string,
    attempt: typeof outboundAttempts.$inferInsert,
    outcome: Pick<OutboundDeliveryRow, 'state' | 'nextAt' | 'lastError' | 'deliveredAt'>,
    countsAsTry: boolean
  ): OutboundDeliveryRow | undefined {
    return this.db.transaction((tx) => {
      tx.insert(outboundAttempts).values(attempt).run();
      return tx
        .update(outboundDeliveries)
        .set({
          ...outcome,
          attempts: countsAsTry ? sql`${outboundDeliveries.attempts} + 1` : undefined
        })
        .where(eq(outboundDeliveries.id, id))
        .returning()
        .get();
    });
  }

  /** Newest first; the cursor is the last row's (createdAt, id). */
  page(
    filter: { agentName?: string; turnId?: string },
    limit: number,
    cursor?: { at: number; id: string }
  ): OutboundDeliveryRow[] {
    const where = [
      filter.agentName ? eq(outboundDeliveries.agentName, filter.agentName) : undefined,
      filter.turnId ? eq(outboundDeliveries.turnId, filter.turnId) : undefined,
      cursor
        ? or(
            lt(outboundDeliveries.createdAt, cursor.at),
            and(eq(outboundDeliveries.createdAt, cursor.at), lt(outboundDeliveries.id, cursor.id))
          )
        : undefined
    ].filter((w) => w !== undefined);
    return this.db
      .select()
      .from(outboundDeliveries)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(outboundDeliveries.createdAt), desc(outboundDeliveries.id))
      .limit(limit)
      .all();
  }

  /** A delivery's tries, oldest first (bounded: a delivery has at most a few dozen). */
  attempts(deliveryId: string, limit: number): OutboundAttemptRow[] {
    return this.db
      .select()
      .from(outboundAttempts)
      .where(eq(outboundAttempts.deliveryId, deliveryId))
      .orderBy(asc(outboundAttempts.at), asc(outboundAttempts.id))
      .limit(limit)
      .all();
  }
}
