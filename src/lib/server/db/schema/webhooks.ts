import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { WebhookMapping } from '$lib/contracts/webhooks';

/** Mappings made in the console; the file's `webhooks.mappings` are not stored here. */
export const webhookMappings = sqliteTable('webhook_mappings', {
  name: text('name').primaryKey(),
  match: text('match', { mode: 'json' }).$type<WebhookMapping['match']>().notNull(),
  message: text('message').notNull(),
  session: text('session'),
  model: text('model'),
  agent: text('agent'),
  delivery: text('delivery', { enum: ['announce', 'none'] }).notNull(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull()
});

/**
 * Webhook tokens made in the console; sha256(token) is kept to find a presented one. A GitHub
 * signing token also keeps the token itself in `signingSecret`, since verifying an HMAC needs
 * the key (as console providers keep their API keys); it never leaves the server.
 */
export const webhookTokens = sqliteTable('webhook_tokens', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  hash: text('hash').notNull().unique(),
  prefix: text('prefix').notNull(),
  signingSecret: text('signing_secret'),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  rotatedAt: integer('rotated_at'),
  lastUsedAt: integer('last_used_at'),
  revokedAt: integer('revoked_at')
});

/**
 * Every request to a webhook route, in a ring of fixed slots (domain/webhooks/delivery-log):
 * delivery `id` goes to slot `id % capacity`, overwriting the one it replaces, so the table is
 * bounded with no deletes on the hot path. No secondary index: at most 10,000 rows scan in
 * milliseconds, and an index would add to every write.
 */
export const webhookDeliveries = sqliteTable('webhook_deliveries', {
  slot: integer('slot').primaryKey(),
  id: integer('id').notNull(),
  receivedAt: integer('received_at').notNull(),
  kind: text('kind', { enum: ['wake', 'agent', 'mapping'] }).notNull(),
  mapping: text('mapping').notNull(),
  status: integer('status').notNull(),
  /** 1 matched, 0 ignored, null never reached a mapping (a nullable boolean column's
   * encoder would turn null into 0 through a prepared insert). */
  matched: integer('matched'),
  eventId: text('event_id'),
  turnId: text('turn_id'),
  durationMs: integer('duration_ms').notNull(),
  payload: text('payload'),
  payloadTruncated: integer('payload_truncated', { mode: 'boolean' }).notNull(),
  headers: text('headers', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  error: text('error'),
  rerunOf: integer('rerun_of')
});
