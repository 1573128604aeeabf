/**
 * What a failed SQLite call says about storage. A locked database (another process holds the
 * write lock), a full disk or an I/O error is a passing state of the machine, not a bug: a
 * request answers 503 with Retry-After and background work tries again later. Anything else
 * (a constraint, a bad statement) is null here and stays an error.
 */
export type StorageFault = 'busy' | 'full' | 'io';

/**
 * How long one statement waits for another process's lock before SQLITE_BUSY. better-sqlite3
 * waits synchronously, so this is time the event loop stands still: short, and the caller is
 * told to retry instead.
 */
export const BUSY_TIMEOUT_MS = 50;

type Watcher = (fault: StorageFault) => void;
const watchers = new Set<Watcher>();

/**
 * The fault a thrown value stands for, from better-sqlite3's extended result code (e.g.
 * SQLITE_BUSY_SNAPSHOT), or null. Every handler of a storage error asks this first, so it is
 * also where the watchers registered with onStorageFault hear of each fault.
 */
export function storageFault(err: unknown): StorageFault | null {
  const fault = classify(err);
  if (fault) for (const watcher of watchers) watcher(fault);
  return fault;
}

/** Calls `watcher` on every storage fault met from now on; returns the way to stop. */
export function onStorageFault(watcher: Watcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

function classify(err: unknown): StorageFault | null {
  if (!(err instanceof Error) || err.name !== 'SqliteError') return null;
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code !== 'string') return null;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return null;
}
