/**
 * Failed authentications per client address, one count shared by REST, RPC (HTTP and /rpc/ws)
 * and webhooks. Once an address has failed `maxFailures` times in a window (which opens at its
 * first failure), every request it makes is refused with 429 until the window ends, the right
 * credential included: were the right one still answered, the 200 among the 401s would tell a
 * guesser when it had found it. A success does not clear the count, so a caller holding one
 * credential cannot use it to reset the count while guessing another.
 *
 * The check runs on every gateway request before any credential is looked at; while no address
 * has failed it is one size test, and otherwise one Map lookup.
 */
export interface AuthThrottleLimit {
  maxFailures: number;
  windowMs: number;
}

interface Entry {
  failures: number;
  resetAt: number;
}

export class AuthThrottle {
  readonly #entries = new Map<string, Entry>();
  #nextSweep = 0;

  constructor(
    private readonly limit: () => AuthThrottleLimit,
    private readonly options: {
      /** Called once when an address starts being refused, e.g. to log it. */
      onBlocked?(address: string, failures: number, retryAfterMs: number): void;
      maxKeys?: number;
      now?: () => number;
    } = {}
  ) {}

  /** Milliseconds until `address` may authenticate again; 0 when it may now. */
  retryAfterMs(address: string | undefined): number {
    if (this.#entries.size === 0) return 0;
    const entry = this.#entries.get(addressKey(address));
    if (!entry || entry.failures < this.limit().maxFailures) return 0;
    const wait = entry.resetAt - this.#now();
    return wait > 0 ? wait : 0;
  }

  /** Counts one refused credential (wrong or missing) from `address`. */
  fail(address: string | undefined): void {
    const now = this.#now();
    const { maxFailures, windowMs } = this.limit();
    if (now >= this.#nextSweep) this.#sweep(now, windowMs);
    const key = addressKey(address);
    let entry = this.#entries.get(key);
    if (!entry || entry.resetAt <= now) {
      this.#entries.delete(key);
      // Oldest insertions first: they are the windows closest to their end.
      if (this.#entries.size >= (this.options.maxKeys ?? 50_000)) {
        const oldest = this.#entries.keys().next();
        if (!oldest.done) this.#entries.delete(oldest.value);
      }
      entry = { failures: 0, resetAt: now + windowMs };
      this.#entries.set(key, entry);
    }
    entry.failures++;
    if (entry.failures === maxFailures)
      this.options.onBlocked?.(key, entry.failures, entry.resetAt - now);
  }

  get size(): number {
    return this.#entries.size;
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }

  #sweep(now: number, windowMs: number): void {
    for (const [key, entry] of this.#entries) if (entry.resetAt <= now) this.#entries.delete(key);
    this.#nextSweep = now + windowMs;
  }
}

/** Whole seconds for a `Retry-After` header: at least 1. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * The key an address is counted under. An IPv4 client is one address; an IPv6 client usually
 * holds a whole /64, so it is counted by that prefix, or it could take a fresh address per guess.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  if (!address.includes(':')) return address;
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  const bare = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(':') : [];
    while (groups.length + rest.length < 8) groups.push('0');
    groups.push(...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
