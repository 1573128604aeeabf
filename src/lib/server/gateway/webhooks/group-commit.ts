/**
 * Group commit: the webhook writes that arrive in one turn of the event loop run in one SQLite
 * transaction, and every caller's promise settles only after that transaction has committed. A
 * 200 still means "committed"; the commit cost is shared by the batch instead of paid per
 * request. Each item must be atomic by itself (one statement, or its own nested transaction,
 * as `once` and TurnService.enqueue are): a failing item is not rolled back by the batch, and
 * a savepoint per item would cost more than the commit it saves.
 */
export type Atomically = <T>(work: () => T) => T;

interface Pending {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  #queue: Pending[] = [];
  #scheduled = false;

  constructor(
    private readonly atomically: Atomically,
    private readonly maxBatch = 256
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    const batch = this.#queue.splice(0, this.maxBatch);
    this.#scheduled = this.#queue.length > 0;
    if (this.#scheduled) setImmediate(() => this.#flush());
    let outcomes: Outcome[];
    try {
      outcomes = this.atomically(() =>
        batch.map((item): Outcome => {
          try {
            return { ok: true, value: item.work() };
          } catch (error) {
            return { ok: false, error };
          }
        })
      );
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}
