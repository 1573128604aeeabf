import Database from 'better-sqlite3';
import { TransactionRollbackError } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { FALLBACK_AUTOCHECKPOINT, startCheckpointer, type Checkpointer } from './checkpointer';
import * as schema from './schema';
import { BUSY_TIMEOUT_MS } from './storage-fault';
import { AfterCommit } from './after-commit';

/** drizzle() returns the database with its better-sqlite3 handle (`$client`, for raw statements). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpenedDatabase {
  db: Db;
  sqlite: Database.Database;
  /** Work held until the open `db.transaction` commits (the domain bus's announcements). */
  afterCommit: AfterCommit;
  close(): void;
}

export interface DatabaseOptions {
  /**
   * In WAL mode `normal` syncs at checkpoints only: a commit survives the process dying but
   * not a power cut or OS crash. `full` syncs the WAL at every commit, surviving both.
   */
  synchronous?: 'normal' | 'full';
  /** Told when the checkpointer's checkpoints fail (the connection then runs its own) and recover. */
  onCheckpointTrouble?: (message: string) => void;
  /** Told of work held for a commit (AfterCommit) that threw once the commit was made. */
  onAfterCommitError?: (error: unknown) => void;
}

/** Opens the SQLite file (WAL, busy timeout, foreign keys) and applies pending migrations. */
export function openDatabase(
  file: string,
  migrationsFolder: string,
  options: DatabaseOptions = {}
): OpenedDatabase {
  if (file !== ':memory:') ownerOnly(file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  // Temporary tables and statement journals (a multi-row UPDATE's undo record) in memory: as
  // files they cost a write per page.
  sqlite.pragma('temp_store = MEMORY');
  const db = drizzle(reusingStatements(sqlite), { schema });
  const afterCommit = new AfterCommit(options.onAfterCommitError);
  withCheapTransactions(db, sqlite, afterCommit);
  migrate(db, { migrationsFolder });
  const checkpointer = file === ':memory:' ? null : checkpointOnWorker(sqlite, file, options);
  return {
    db,
    sqlite,
    afterCommit,
    close: () => {
      checkpointer?.stop();
      if (sqlite.open) sqlite.close();
    }
  };
}

/** Rows the connection changes in a second from which its checkpoints move to the worker. */
export const WORKER_AT_CHANGES = 1_000;
/** How often the connection's write rate is looked at. */
const WATCH_MS = 1_000;

/**
 * Checkpoints leave this connection for a worker (db/checkpointer) once it writes much (at
 * least WORKER_AT_CHANGES rows in a second): until then it checkpoints by itself at SQLite's
 * default size, rarely on a quiet server, which then does without the worker's thread (about
 * 16 MiB of RSS). If the worker's checkpoints fail, this connection checkpoints at the default
 * size again until they work.
 */
function checkpointOnWorker(
  sqlite: Database.Database,
  file: string,
  options: DatabaseOptions
): Checkpointer {
  const own = (pages: number) => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${pages}`);
  };
  const changes = sqlite.prepare('select total_changes()').pluck();
  let seen = changes.get() as number;
  let worker: Checkpointer | null = null;
  const watch = setInterval(() => {
    if (!sqlite.open) return;
    const now = changes.get() as number;
    if (now - seen >= WORKER_AT_CHANGES) {
      clearInterval(watch);
      own(FALLBACK_AUTOCHECKPOINT);
      worker = startCheckpointer(file, (problem) => {
        if ('failed' in problem) {
          own(1000);
          options.onCheckpointTrouble?.(`checkpoints on the worker fail (${problem.failed})`);
        } else {
          own(FALLBACK_AUTOCHECKPOINT);
          options.onCheckpointTrouble?.('checkpoints on the worker work again');
        }
      });
    }
    seen = now;
  }, WATCH_MS).unref();
  return {
    stop: () => {
      clearInterval(watch);
      worker?.stop();
    }
  };
}

/**
 * The file keeps secrets the server must read back (console providers' API keys, GitHub signing
 * secrets), so only its owner may read it: created 0600 (a new data folder 0700) and put back
 * to 0600 when found looser. SQLite gives its -wal and -shm files the database file's mode.
 */
function ownerOnly(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch {
      // Absent (-wal, -shm), or owned by another user: SQLite opens it as it is.
    }
  }
}

/**
 * `db.transaction` through better-sqlite3's own transaction function, made once: drizzle's
 * builds a transaction object per call, with a query builder for every table (about 14 µs, a
 * heartbeat turn makes several and the webhook group commit one per batch). The work gets a view
 * of `db` with drizzle's `rollback()`; better-sqlite3 nests a call made inside a transaction in
 * a savepoint, as drizzle did, and rolls back whatever throws. What the work hands to `after`
 * runs once the outermost transaction commits.
 */
function withCheapTransactions(db: Db, sqlite: Database.Database, after: AfterCommit): void {
  const run = sqlite.transaction((work: () => unknown) => work());
  const tx = Object.create(db, {
    rollback: {
      value: () => {
        throw new TransactionRollbackError();
      }
    }
  }) as Parameters<Parameters<Db['transaction']>[0]>[0];
  db.transaction = <T>(
    work: (view: typeof tx) => T,
    config?: { behavior?: 'deferred' | 'immediate' | 'exclusive' }
  ): T => {
    const mark = after.begin();
    let value: T;
    try {
      value = run[config?.behavior ?? 'deferred'](() => work(tx)) as T;
    } catch (error) {
      after.end(mark, false);
      throw error;
    }
    after.end(mark, true);
    return value;
  };
}

/** Compiled statements kept per SQL text (least recently used dropped past this). */
const STATEMENTS_KEPT = 256;

/**
 * The connection as drizzle sees it, with `prepare` reusing the statement compiled for the same
 * SQL text: drizzle compiles every query that is not prepared by hand anew, and compiling cost
 * more than running the small queries a turn makes. Drizzle sets a statement's raw mode before
 * each use that needs it; a reused one is put back to rows first.
 */
function reusingStatements(sqlite: Database.Database): Database.Database {
  const kept = new Map<string, Database.Statement>();
  const prepare = (source: string) => {
    let statement = kept.get(source);
    if (statement) {
      kept.delete(source);
      if (statement.reader) statement.raw(false);
    } else {
      statement = sqlite.prepare(source);
      if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
    }
    kept.set(source, statement);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, key) {
      if (key === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, key, target);
      // Native methods need the real connection as `this`.
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    }
  });
}
