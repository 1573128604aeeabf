import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Remote engines added in Settings → Engines. Only file paths are kept here: uploaded PEM
 * text is written to files under the data directory (mode 0600), never to this table.
 */
export const consoleEngines = sqliteTable('console_engines', {
  name: text('name').primaryKey(),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  caFile: text('ca_file'),
  certFile: text('cert_file').notNull(),
  keyFile: text('key_file').notNull(),
  /** True when the files are Berth's own copies of uploaded PEM (removed with the engine). */
  uploaded: integer('uploaded', { mode: 'boolean' }).notNull(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull()
});
