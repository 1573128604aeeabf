import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { webhookDeliveries, webhookMappings, webhookTokens } from '../schema';

export type WebhookMappingRow = typeof webhookMappings.$inferSelect;
export type WebhookTokenRow = typeof webhookTokens.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDeliveryRow = typeof webhookDeliveries.$inferInsert;

/** The console's webhook mappings and tokens, and the delivery log. */
const DELIVERY_COLUMNS = [
  'receivedAt',
  'kind',
  'mapping',
  'status',
  'matched',
  'eventId',
  'turnId',
  'durationMs',
  'payload',
  'payloadTruncated',
  'headers',
  'error',
  'rerunOf'
] as const satisfies readonly (keyof NewDeliveryRow)[];

/** A placeholder needs a value: the optional columns default to null. */
const DELIVERY_DEFAULTS = {
  matched: null,
  eventId: null,
  turnId: null,
  payload: null,
  error: null,
  rerunOf: null
};

function prepareInsert(db: Db) {
  const values = Object.fromEntries(
    DELIVERY_COLUMNS.map((column) => [column, sql.placeholder(column)])
  ) as unknown as NewDeliveryRow;
  return db
    .insert(webhookDeliveries)
    .values(values)
    .returning({ id: webhookDeliveries.id })
    .prepare();
}

export class WebhookRepository {
  #insert: ReturnType<typeof prepareInsert> | undefined;

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

  /**
   * Deliveries of one batch in one transaction, through one prepared statement: building the
   * query per batch showed in the webhook bench, binding a prepared one does not.
   */
  insertDeliveries(rows: readonly NewDeliveryRow[]): number[] {
    const insert = (this.#insert ??= prepareInsert(this.db));
    return this.db.transaction(() =>
      rows.map((r) => insert.get({ ...DELIVERY_DEFAULTS, ...r }).id)
    );
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
