import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  role: text('role', { enum: ['viewer', 'operator', 'admin'] }).notNull(),
  passwordHash: text('password_hash').notNull(),
  disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at')
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  updatedAt: integer('updated_at')
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  lastLoginAt: integer('last_login_at')
});

/** Login sessions as the Lucia guide describes: the token is `id.secret`; only sha256(secret) is kept. */
export const loginSessions = sqliteTable(
  'login_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent')
  },
  (t) => [index('login_sessions_user_idx').on(t.userId)]
);
