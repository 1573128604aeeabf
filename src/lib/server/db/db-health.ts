import type Database from 'better-sqlite3';
import type { Check } from '$lib/contracts/health';
import { storageFault, type StorageFault } from './storage-fault';

const FAULT_DETAIL: Record<StorageFault, string> = {
  busy: 'database locked by another process: writes failing',
  full: 'disk full: writes failing',
  io: 'I/O error: writes failing'
};

/**
 * The database check of /readyz. A read alone says nothing about a full disk or a lock held by
 * another process, so a one-page write is tried too: SQLite's user_version set to the value it
 * has (Berth does not use it), which commits a frame to the WAL like any write. The write is
 * tried at most once per `writeEveryMs`, so a flood of probes cannot become a flood of commits.
 */
export class DatabaseHealth {
  #lastWrite: { at: number; fault: string | null } | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly writeEveryMs = 1000
  ) {}

  check(): Check {
    const started = performance.now();
    try {
      this.sqlite.prepare('select 1').get();
    } catch (err) {
      return { status: 'error', detail: describe(err) };
    }
    const fault = this.#writeFault(started);
    if (fault) return { status: 'error', detail: fault };
    return { status: 'ok', latencyMs: Math.round(performance.now() - started) };
  }

  #writeFault(now: number): string | null {
    if (this.#lastWrite && now - this.#lastWrite.at < this.writeEveryMs)
      return this.#lastWrite.fault;
    let fault: string | null = null;
    try {
      const version = this.sqlite.pragma('user_version', { simple: true }) as number;
      this.sqlite.pragma(`user_version = ${Number(version) | 0}`);
    } catch (err) {
      fault = describe(err);
    }
    this.#lastWrite = { at: now, fault };
    return fault;
  }
}

function describe(err: unknown): string {
  const fault = storageFault(err);
  if (fault) return FAULT_DETAIL[fault];
  return err instanceof Error ? err.message : String(err);
}
