/**
 * A map that keeps at most `capacity` entries, dropping the least recently used (read or
 * written) when a new key would pass it. For caches whose keys arrive without end (one per
 * session, and a webhook sender may make a session per call): a dropped entry is worked out
 * again when next needed.
 */
export class RecentMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: moving the key to the end marks it used.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity)
      this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }
}
