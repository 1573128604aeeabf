import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Model providers added in Settings → Providers (berth.yaml's `providers:` are not stored
 * here). The API key is kept as given, since every request sends it; it never leaves the
 * server: no answer, log or audit entry carries it.
 */
export const consoleProviders = sqliteTable('console_providers', {
  name: text('name').primaryKey(),
  baseUrl: text('base_url').notNull(),
  model: text('model'),
  apiKey: text('api_key'),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull()
});
