import type Database from 'better-sqlite3';
import type { Check } from '$lib/contracts/health';
import { watchLocks } from './lock-watch';
import { onStorageFault, storageFault, type StorageFault } from './storage-fault';

const FAULT_DETAIL: Record<StorageFault, string> = {
  busy: 'database locked by another process: writes failing',
  full: 'disk full: writes failing',
  io: 'I/O error: writes failing'
};

/** How often a fault of one kind is logged while it goes on. */
const LOG_EVERY_MS = 10_000;

/**
 * Storage faults as the operator sees them: logged (once per kind every 10 s, not once per
 * refused request), the busy wait dropped while another process holds the lock (lock-watch),
 * and the database check of /readyz. A read alone says nothing about a full disk or a lock, so
 * that check tries a one-page write too: SQLite's user_version set to the value it has (Berth
 * does not use it), which commits a frame to the WAL like any write. The write is tried at most
 * once per `writeEveryMs`, so a flood of probes cannot become a flood of commits.
 */
export class DatabaseHealth {
  #lastWrite: { at: number; fault: string | null } | undefined;
  readonly #stops: (() => void)[];

  constructor(
    private readonly sqlite: Database.Database,
    warn: (fault: StorageFault, detail: string) => void = () => {},
    private readonly writeEveryMs = 1000
  ) {
    const logged = new Map<StorageFault, number>();
    this.#stops = [
      watchLocks(sqlite),
      onStorageFault((fault) => {
        const now = Date.now();
        if (now - (logged.get(fault) ?? -LOG_EVERY_MS) < LOG_EVERY_MS) return;
        logged.set(fault, now);
        warn(fault, FAULT_DETAIL[fault]);
      })
    ];
  }

  stop(): void {
    for (const stop of this.#stops) stop();
  }

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
