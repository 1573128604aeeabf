import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Outbound webhooks added in the console; those of berth.yaml live only in memory. */
export const outboundWebhooks = sqliteTable(
  'outbound_webhooks',
  {
    id: text('id').primaryKey(),
    agentName: text('agent_name').notNull(),
    url: text('url').notNull(),
    /** `whsec_<base64>`: needed in clear to sign; shown once when created, never again. */
    secret: text('secret').notNull(),
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    allowPrivate: integer('allow_private', { mode: 'boolean' }).notNull().default(false),
    createdBy: text('created_by'),
    createdAt: integer('created_at').notNull()
  },
  (t) => [index('outbound_webhooks_agent').on(t.agentName)]
);

export const OUTBOUND_STATES = ['pending', 'delivered', 'failed'] as const;
export type OutboundState = (typeof OUTBOUND_STATES)[number];

/**
 * The outbox: one message to one endpoint, committed with the turn's end, sent and retried
 * from here until delivered or out of tries. `endpointId` is `config:<agent>:<index>` or a
 * console webhook's id; the secret is looked up at each send.
 */
export const outboundDeliveries = sqliteTable(
  'outbound_deliveries',
  {
    id: text('id').primaryKey(),
    agentName: text('agent_name').notNull(),
    endpointId: text('endpoint_id').notNull(),
    url: text('url').notNull(),
    event: text('event').notNull(),
    turnId: text('turn_id').notNull(),
    payload: text('payload').notNull(),
    state: text('state', { enum: OUTBOUND_STATES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAt: integer('next_at'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    deliveredAt: integer('delivered_at')
  },
  (t) => [
    index('outbound_deliveries_due').on(t.state, t.nextAt),
    index('outbound_deliveries_agent').on(t.agentName, t.createdAt)
  ]
);

/** Every try of a delivery: when, the answer's status or the error, how long it took. */
export const outboundAttempts = sqliteTable(
  'outbound_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => outboundDeliveries.id, { onDelete: 'cascade' }),
    at: integer('at').notNull(),
    status: integer('status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    trigger: text('trigger', { enum: ['auto', 'resend'] }).notNull()
  },
  (t) => [index('outbound_attempts_delivery').on(t.deliveryId, t.at)]
);
