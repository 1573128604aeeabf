import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import * as schema from './schema';
import { BUSY_TIMEOUT_MS } from './storage-fault';

/** drizzle() returns the database with its better-sqlite3 handle (`$client`, for raw statements). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpenedDatabase {
  db: Db;
  sqlite: Database.Database;
  close(): void;
}

export interface DatabaseOptions {
  /**
   * In WAL mode `normal` syncs at checkpoints only: a commit survives the process dying but
   * not a power cut or OS crash. `full` syncs the WAL at every commit, surviving both.
   */
  synchronous?: 'normal' | 'full';
}

/** Opens the SQLite file (WAL, busy timeout, foreign keys) and applies pending migrations. */
export function openDatabase(
  file: string,
  migrationsFolder: string,
  options: DatabaseOptions = {}
): OpenedDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return {
    db,
    sqlite,
    close: () => {
      if (sqlite.open) sqlite.close();
    }
  };
}
