import type Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, onStorageFault } from './storage-fault';

/**
 * Once a write has met another process's lock, waiting on that lock again only stands the event
 * loop still: each write would block for the busy timeout before failing anyway. So after the
 * first SQLITE_BUSY the busy timeout drops to 0 (writes fail at once: 503, or retried later by
 * background work), and every `probeEveryMs` an empty immediate transaction checks the lock;
 * when it is free the short wait comes back for the ordinary, passing kind of contention.
 */
export function watchLocks(sqlite: Database.Database, probeEveryMs = 100): () => void {
  let probe: NodeJS.Timeout | undefined;
  const restore = () => {
    clearInterval(probe);
    probe = undefined;
    if (sqlite.open) sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  };
  const check = () => {
    if (!sqlite.open) return restore();
    // Transactions here are synchronous, so none is open between event-loop turns.
    if (sqlite.inTransaction) return;
    try {
      sqlite.exec('BEGIN IMMEDIATE');
      sqlite.exec('ROLLBACK');
    } catch {
      return; // still held: check again later
    }
    restore();
  };
  const stopWatching = onStorageFault((fault) => {
    if (fault !== 'busy' || probe || !sqlite.open) return;
    sqlite.pragma('busy_timeout = 0');
    probe = setInterval(check, probeEveryMs).unref();
  });
  return () => {
    stopWatching();
    restore();
  };
}
