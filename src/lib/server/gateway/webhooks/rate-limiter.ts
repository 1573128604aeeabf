/**
 * Fixed-window request counter per key (token + client address). `hit` is synchronous, so on
 * Node's single thread concurrent requests are counted exactly. Expired keys are swept once per
 * window and the table is capped, so memory stays bounded whatever addresses call.
 */
export interface RateLimit {
  maxRequests: number;
  windowMs: number;
}

export type HitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Window {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  readonly #windows = new Map<string, Window>();
  #nextSweep = 0;

  constructor(private readonly maxKeys = 50_000) {}

  hit(key: string, limit: RateLimit, now = Date.now()): HitResult {
    if (now >= this.#nextSweep) this.#sweep(now, limit.windowMs);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      this.#windows.delete(key);
      // Oldest insertions go first: they are the windows closest to expiring.
      if (this.#windows.size >= this.maxKeys) {
        const oldest = this.#windows.keys().next();
        if (!oldest.done) this.#windows.delete(oldest.value);
      }
      window = { count: 0, resetAt: now + limit.windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    if (window.count <= limit.maxRequests) return { allowed: true };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000))
    };
  }

  get size(): number {
    return this.#windows.size;
  }

  #sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    this.#nextSweep = now + windowMs;
  }
}
