/**
 * Work that must follow a commit, never precede it: announcing a row (a live push, starting
 * its runner) before its transaction commits would show subscribers a row that a refused commit
 * (disk full, locked) then takes back. Inside a transaction made with `db.transaction` the work
 * waits for the outermost one to commit, in order, and is dropped with the part that rolls back
 * (a nested transaction's savepoint, or the whole); outside one it runs at once.
 */
export class AfterCommit {
  #pending: (() => void)[] = [];
  #depth = 0;

  /**
   * @param report told of work that threw after its commit (or, outside a transaction, at
   *   once): the caller must not see it as a failed write, since the rows are committed (by
   *   default the first such error is thrown once all the work has run)
   */
  constructor(private readonly report?: (error: unknown) => void) {}

  /** Runs `work` once the open transaction commits, or now when none is open. */
  run(work: () => void): void {
    if (this.#depth > 0) this.#pending.push(work);
    else if (!this.report) work();
    else
      try {
        work();
      } catch (error) {
        this.report(error);
      }
  }

  /** A transaction (or a savepoint in one) begins; returns its mark for `end`. */
  begin(): number {
    this.#depth++;
    return this.#pending.length;
  }

  /**
   * It ended: committed, or rolled back (what it queued is dropped). When the outermost one
   * commits, the work runs; one that throws does not stop the rest.
   */
  end(mark: number, committed: boolean): void {
    this.#depth--;
    if (!committed) this.#pending.length = mark;
    if (this.#depth > 0 || !this.#pending.length) return;
    const work = this.#pending;
    this.#pending = [];
    let failure: { error: unknown } | null = null;
    for (const run of work) {
      try {
        run();
      } catch (error) {
        if (this.report) this.report(error);
        else failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
