import type { Statement } from 'better-sqlite3';
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { webhookDeliveries, webhookMappings, webhookTokens } from '../schema';

export type WebhookMappingRow = typeof webhookMappings.$inferSelect;
export type WebhookTokenRow = typeof webhookTokens.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The console's webhook mappings and tokens, and the delivery log. */
const COLUMNS = [
  'slot',
  'id',
  'received_at',
  'kind',
  'mapping',
  'status',
  'matched',
  'event_id',
  'turn_id',
  'duration_ms',
  'payload',
  'payload_truncated',
  'headers',
  'error',
  'rerun_of'
];

/** Deliveries written by one statement: a statement per row cost about 1 µs more a row. */
const ROWS_PER_PUT = 32;

/**
 * `rows` deliveries into their ring slots, replacing what was there. better-sqlite3's own
 * prepared statement: drizzle's prepared insert cost 16 µs a row against 5 µs for this in a
 * measurement of 50,000 rows, and this runs for every webhook request.
 */
const putDeliveries = (rows: number) => `insert into webhook_deliveries (${COLUMNS.join(', ')})
  values ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}
  on conflict (slot) do update set
  ${COLUMNS.slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;

const deliveryValues = (r: DeliveryRow) => [
  r.slot,
  r.id,
  r.receivedAt,
  r.kind,
  r.mapping,
  r.status,
  r.matched,
  r.eventId,
  r.turnId,
  r.durationMs,
  r.payload,
  r.payloadTruncated ? 1 : 0,
  JSON.stringify(r.headers),
  r.error,
  r.rerunOf
];

export class WebhookRepository {
  #putOne: Statement | undefined;
  #putMany: Statement | undefined;

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
   * Deliveries of one batch, each into its slot, in one transaction: one commit for all. A
   * later row wins a slot it shares with an earlier one (the ring wrapped within the batch).
   */
  putDeliveries(rows: readonly DeliveryRow[]): void {
    const sqlite = this.db.$client;
    const one = (this.#putOne ??= sqlite.prepare(putDeliveries(1)));
    const many = (this.#putMany ??= sqlite.prepare(putDeliveries(ROWS_PER_PUT)));
    sqlite.transaction(() => {
      let i = 0;
      for (; i + ROWS_PER_PUT <= rows.length; i += ROWS_PER_PUT)
        many.run(rows.slice(i, i + ROWS_PER_PUT).flatMap(deliveryValues));
      for (; i < rows.length; i++) one.run(deliveryValues(rows[i]!));
    })();
  }

  /** The newest delivery's id; 0 when none is kept. */
  lastDeliveryId(): number {
    return (
      this.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .orderBy(desc(webhookDeliveries.id))
        .limit(1)
        .get()?.id ?? 0
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

  /** Delivery `id`, if its slot still holds it. */
  delivery(id: number, slot: number): DeliveryRow | undefined {
    const d = webhookDeliveries;
    return this.db
      .select()
      .from(d)
      .where(and(eq(d.slot, slot), eq(d.id, id)))
      .get();
  }

  /** The newest delivery that queued this turn or event (a scan of at most the ring). */
  causing(cause: { turnId: string } | { eventId: string }): DeliveryRow | undefined {
    const d = webhookDeliveries;
    return this.db
      .select()
      .from(d)
      .where('turnId' in cause ? eq(d.turnId, cause.turnId) : eq(d.eventId, cause.eventId))
      .orderBy(desc(d.id))
      .limit(1)
      .get();
  }

  /** Empties the slots of rows received before `before` (a scan of at most the ring). */
  pruneOlderThan(before: number): number {
    return this.db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, before)).run()
      .changes;
  }
}
