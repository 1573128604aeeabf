/**
 * Slows guessing without locking anyone out for good: after `freeAttempts` failures a key must
 * wait, doubling from `baseDelayMs` up to `maxDelayMs`; a success or `forgetAfterMs` of quiet
 * clears it. Kept per account and per client address.
 */
export interface ThrottleOptions {
  freeAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
  maxKeys: number;
}

interface Entry {
  failures: number;
  blockedUntil: number;
  lastFailure: number;
}

export const ACCOUNT_THROTTLE: ThrottleOptions = {
  freeAttempts: 5,
  baseDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxKeys: 50_000
};

export const ADDRESS_THROTTLE: ThrottleOptions = { ...ACCOUNT_THROTTLE, freeAttempts: 20 };

export class LoginThrottle {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly options: ThrottleOptions,
    private readonly now: () => number = Date.now
  ) {}

  /** Milliseconds until any of these keys may try again; 0 when all may. */
  waitMs(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const entry = this.#live(key, now);
      if (entry) wait = Math.max(wait, entry.blockedUntil - now);
    }
    return Math.max(0, wait);
  }

  fail(keys: string[]): void {
    const now = this.now();
    for (const key of keys) {
      const entry = this.#live(key, now) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
      entry.failures += 1;
      entry.lastFailure = now;
      const over = entry.failures - this.options.freeAttempts;
      if (over >= 0) {
        const delay = Math.min(
          this.options.baseDelayMs * 2 ** Math.min(over, 20),
          this.options.maxDelayMs
        );
        entry.blockedUntil = now + delay;
      }
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    this.#trim();
  }

  succeed(keys: string[]): void {
    for (const key of keys) this.#entries.delete(key);
  }

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (
      entry &&
      now - entry.lastFailure > this.options.forgetAfterMs &&
      now >= entry.blockedUntil
    ) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  // Map keeps insertion order and fail() re-inserts, so the first keys are the stalest.
  #trim(): void {
    while (this.#entries.size > this.options.maxKeys) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
