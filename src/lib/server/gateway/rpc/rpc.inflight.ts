/**
 * Bounds the messages of one /rpc/ws connection that are being answered at once. Beyond the
 * bound the connection stops reading (TCP backpressure reaches the client) and the frames
 * already received wait in order; nothing is refused, so a client may pipeline freely.
 * Frames keep arriving for a moment after a pause (what the socket had buffered), hence the
 * queue; past `maxQueued` the peer ignores backpressure and `overflow` is called.
 */
export class InFlight<T> {
  #active = 0;
  readonly #queue: T[] = [];
  #paused = false;

  constructor(
    private readonly options: {
      max: number;
      maxQueued: number;
      run(item: T): Promise<void>;
      pause(): void;
      resume(): void;
      overflow(): void;
    }
  ) {}

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queue.length;
  }

  push(item: T): void {
    if (this.#active < this.options.max) return this.#start(item);
    if (this.#queue.length >= this.options.maxQueued) return this.options.overflow();
    this.#queue.push(item);
    if (!this.#paused) {
      this.#paused = true;
      this.options.pause();
    }
  }

  #start(item: T): void {
    this.#active++;
    void this.options.run(item).finally(() => {
      this.#active--;
      const next = this.#queue.shift();
      if (next !== undefined) return this.#start(next);
      if (this.#paused) {
        this.#paused = false;
        this.options.resume();
      }
    });
  }
}
