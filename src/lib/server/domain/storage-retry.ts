import { setTimeout as sleep } from 'node:timers/promises';
import { storageFault } from '../db/storage-fault';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/** Waits that double from 100 ms to at most 2 s, for work that storage keeps refusing. */
export class Backoff {
  #next = FIRST_DELAY_MS;

  next(): number {
    const delay = this.#next;
    this.#next = Math.min(delay * 2, MAX_DELAY_MS);
    return delay;
  }

  reset(): void {
    this.#next = FIRST_DELAY_MS;
  }
}

/**
 * Background writes (a turn's reply, a skill run's result, a heartbeat's claim) meet a locked
 * database or a full disk as a passing state, not as a failure of the work: the write is tried
 * now and, while storage refuses it, again after each backoff delay. Resolves with the write's
 * result, or undefined once `stopped()` holds; any other error rejects. The first try runs
 * synchronously, so nothing changes order while storage is well.
 */
export async function whenStored<T>(
  write: () => T,
  stopped: () => boolean = () => false
): Promise<T | undefined> {
  const backoff = new Backoff();
  for (;;) {
    if (stopped()) return undefined;
    try {
      return write();
    } catch (err) {
      if (!storageFault(err)) throw err;
    }
    // Unreferenced: a pending retry does not hold the process open at shutdown.
    await sleep(backoff.next(), undefined, { ref: false });
  }
}

/**
 * At most one pending retry per key (an agent's queue) for work storage refused; the delay
 * grows while refusals go on and starts small again after a success.
 */
export class RetryLater {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #backoff = new Backoff();

  constructor(private readonly retry: (key: string) => void) {}

  pending(key: string): boolean {
    return this.#timers.has(key);
  }

  schedule(key: string): void {
    if (this.#timers.has(key)) return;
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.retry(key);
    }, this.#backoff.next());
    this.#timers.set(key, timer.unref());
  }

  succeeded(): void {
    this.#backoff.reset();
  }

  clear(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}

/** Runs optional work (a renewal, a purge) unless storage refuses it; true when it ran. */
export function unlessUnavailable(work: () => unknown): boolean {
  try {
    work();
    return true;
  } catch (err) {
    if (!storageFault(err)) throw err;
    return false;
  }
}
