import type { LogLine } from '$lib/contracts/realtime';
import type { Backfill } from './channel-hub';

/** Where an outbox writes: one socket, one channel. */
export interface OutboxSink {
  /** Whether the socket has taken what was sent before (nothing waits in its write buffer). */
  ready(): boolean;
  lines(lines: LogLine[]): void;
  gap(missed: number | null): void;
  ended(reason: string): void;
}

export interface OutboxLimits {
  /** Lines held for a socket that reads slowly; beyond, lines are dropped and counted. */
  maxLines: number;
  maxBytes: number;
  /** Lines per `container.log` message. */
  batchLines: number;
}

export const OUTBOX_LIMITS: OutboxLimits = {
  maxLines: 5_000,
  maxBytes: 4 * 1024 * 1024,
  batchLines: 500
};

type Item =
  { line: LogLine } | { missed: number | null } | { ended: string } | { backfill: Backfill | null };

/**
 * The bounded queue of log lines between a channel and one socket. Lines go out in batches while
 * the socket keeps up; when it does not, they wait here up to the limits, and past them they are
 * dropped and counted: the socket gets `container.log.gap {missed}` where they would have been.
 * A resume cursor (`since`, `seen`) skips the lines the viewer already holds.
 */
export class LogOutbox {
  #queue: Item[] = [];
  #head = 0;
  #lines = 0;
  #bytes = 0;
  #pumping = false;
  #resume: { since: string; seen: number } | null;
  /** The cursor as the member sent it: lines read back later are held to it too. */
  readonly #firstResume: { since: string; seen: number } | null;

  constructor(
    private readonly sink: OutboxSink,
    resume: { since?: string; seen?: number } = {},
    private readonly limits: OutboxLimits = OUTBOX_LIMITS
  ) {
    this.#resume = resume.since ? { since: resume.since, seen: resume.seen ?? 0 } : null;
    this.#firstResume = this.#resume && { ...this.#resume };
  }

  /** Lines held now. */
  get held(): number {
    return this.#lines;
  }

  offer(lines: LogLine[]): void {
    for (const line of lines) {
      if (this.#skip(line)) continue;
      // A big batch is sent as it fills the queue, so a socket that keeps up loses nothing.
      if (this.#full(line)) this.pump();
      if (this.#full(line)) this.#drop();
      else {
        this.#queue.push({ line });
        this.#lines += 1;
        this.#bytes += line.line.length;
      }
    }
    this.pump();
  }

  #full(line: LogLine): boolean {
    return (
      this.#lines >= this.limits.maxLines || this.#bytes + line.line.length > this.limits.maxBytes
    );
  }

  gap(missed: number | null): void {
    this.#queue.push({ missed });
    this.pump();
  }

  /** Lines still being read: nothing queued after them is sent before them. */
  hold(pending: Promise<Backfill>): void {
    const item: { backfill: Backfill | null } = { backfill: null };
    this.#queue.push(item);
    const settle = (backfill: Backfill) => {
      item.backfill = backfill;
      this.pump();
    };
    pending.then(settle, () => settle({ lines: [], missed: null }));
  }

  /** The stream ended: said after the lines still held, never before them. */
  ended(reason: string): void {
    this.#queue.push({ ended: reason });
    this.pump();
  }

  /** Sends what the socket will take; called again when the socket drains. */
  pump(): void {
    if (this.#pumping) return; // a send that drains at once calls back in here
    this.#pumping = true;
    try {
      while (this.#head < this.#queue.length && this.sink.ready() && this.#sendNext());
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** Sends the next message; false while lines being read back block the queue. */
  #sendNext(): boolean {
    const first = this.#queue[this.#head]!;
    if ('backfill' in first) {
      if (!first.backfill) return false;
      this.#queue.splice(this.#head, 1, ...this.#expand(first.backfill));
      return true;
    }
    if (!('line' in first)) {
      this.#head += 1;
      if ('missed' in first) this.sink.gap(first.missed);
      else this.sink.ended(first.ended);
      return true;
    }
    const batch: LogLine[] = [];
    while (this.#head < this.#queue.length && batch.length < this.limits.batchLines) {
      const item = this.#queue[this.#head]!;
      if (!('line' in item)) break;
      batch.push(item.line);
      this.#head += 1;
      this.#lines -= 1;
      this.#bytes -= item.line.line.length;
    }
    // Sent items are released for the collector in passing.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.sink.lines(batch);
    return true;
  }

  /** Read-back lines as queue items, held to the member's first cursor. */
  #expand({ lines, missed }: Backfill): Item[] {
    const cursor = this.#firstResume && { ...this.#firstResume };
    const items: Item[] = [];
    for (const line of lines) {
      if (cursor && line.ts !== undefined && line.ts <= cursor.since) {
        if (line.ts < cursor.since || cursor.seen-- > 0) continue;
      }
      items.push({ line });
      this.#lines += 1;
      this.#bytes += line.line.length;
    }
    if (missed !== 0) items.push({ missed });
    return items;
  }

  #drop(): void {
    const last = this.#queue[this.#queue.length - 1];
    if (this.#queue.length > this.#head && last && 'missed' in last && last.missed !== null)
      last.missed += 1;
    else this.#queue.push({ missed: 1 });
  }

  /** Whether the viewer holds this line already (a resume), updating the cursor. */
  #skip(line: LogLine): boolean {
    const r = this.#resume;
    if (!r || line.ts === undefined) return false;
    if (line.ts < r.since) return true;
    if (line.ts === r.since && r.seen > 0) {
      r.seen -= 1;
      return true;
    }
    this.#resume = null; // past the cursor: every later line is new
    return false;
  }
}
