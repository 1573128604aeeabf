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

  /**
   * @param maxBatch items per transaction
   * @param budgetMs time one transaction may spend on its items: the event loop is held while
   *   it runs, so a batch of heavy items (a turn with its session and message) is cut short
   *   and its remainder committed in the next turn, keeping probes and reads answering.
   */
  constructor(
    private readonly atomically: Atomically,
    private readonly maxBatch = 256,
    private readonly budgetMs = 8
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    const batch = this.#queue.splice(0, this.maxBatch);
    let outcomes: Outcome[];
    try {
      outcomes = this.atomically(() => {
        const started = performance.now();
        const done: Outcome[] = [];
        for (const item of batch) {
          if (done.length && performance.now() - started > this.budgetMs) break;
          try {
            done.push({ ok: true, value: item.work() });
          } catch (error) {
            done.push({ ok: false, error });
          }
        }
        return done;
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      if (this.#queue.length) this.#schedule();
      return;
    }
    // What the budget left over goes first in the next transaction.
    this.#queue.unshift(...batch.slice(outcomes.length));
    if (this.#queue.length) this.#schedule();
    outcomes.forEach((outcome, i) => {
      const item = batch[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}
