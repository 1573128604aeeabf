import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** REST API keys made in Settings; only sha256(key) is kept. */
export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  hash: text('hash').notNull().unique(),
  prefix: text('prefix').notNull(),
  role: text('role', { enum: ['viewer', 'operator', 'admin'] }).notNull(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  rotatedAt: integer('rotated_at'),
  lastUsedAt: integer('last_used_at'),
  revokedAt: integer('revoked_at')
});

/** RPC bearer tokens made on the Tokens page; only sha256(token) is kept. */
export const rpcTokens = sqliteTable('rpc_tokens', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  hash: text('hash').notNull().unique(),
  prefix: text('prefix').notNull(),
  permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  rotatedAt: integer('rotated_at'),
  lastUsedAt: integer('last_used_at'),
  revokedAt: integer('revoked_at')
});

/** Answers remembered per Idempotency-Key / webhook-id for 24 h. */
export const idempotencyKeys = sqliteTable('idempotency_keys', {
  key: text('key').primaryKey(),
  status: integer('status').notNull(),
  body: text('body').notNull(),
  createdAt: integer('created_at').notNull()
});

/** Requests per day, interface, route, status and token: the counters behind usage.stats. */
export const requestCounts = sqliteTable('request_counts', {
  id: text('id').primaryKey(),
  day: text('day').notNull(),
  iface: text('interface').notNull(),
  route: text('route').notNull(),
  status: integer('status').notNull(),
  token: text('token').notNull(),
  count: integer('count').notNull()
});
