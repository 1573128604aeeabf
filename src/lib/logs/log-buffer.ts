/**
 * The log viewer's model, framework-free (Node and browser, no DOM): a bounded ring buffer of
 * entries from several sources kept in timestamp order, the filtered view the viewer renders,
 * search matches, and follow/pause. Lines are queued by push() and merged by flush(), which
 * the viewer calls once per animation frame, so a burst of batches costs one update.
 */
import type { RowChange } from './row-layout';
import { timestampKey } from './timestamp';

export type StreamName = 'stdout' | 'stderr';

/**
 * One line as the realtime channel delivers it. `ts` is the engine's RFC 3339 time or epoch ms;
 * a line without one is placed at its arrival.
 */
export interface IncomingLine {
  stream: StreamName;
  ts?: string | number;
  line: string;
}

export interface LogEntry {
  /** Arrival order, unique: breaks timestamp ties and keys the rendered row. */
  readonly seq: number;
  /** Sort key: epoch milliseconds with the sub-millisecond fraction. */
  readonly key: number;
  readonly source: string;
  readonly kind: 'line' | 'gap' | 'ended';
  /** Null for markers, which every stream filter shows. */
  readonly stream: StreamName | null;
  readonly text: string;
  /** The text without ANSI escapes: what search looks at. */
  readonly plain: string;
}

export interface LogFilter {
  stdout: boolean;
  stderr: boolean;
  /** Sources whose entries are hidden (a few ids: a list is quicker than a set). */
  hidden: readonly string[];
}

export const DEFAULT_CAPACITY = 200_000;

// CSI sequences (colours, cursor moves) and OSC sequences (titles, links), ended by BEL or ST.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g;

export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

export function compareEntries(a: LogEntry, b: LogEntry): number {
  return a.key - b.key || a.seq - b.seq;
}

/** The first index whose entry is not before `entry`, in `length` entries read through `at`. */
function lowerBound(length: number, at: (i: number) => LogEntry, entry: LogEntry): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(at(mid), entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive plain-text pattern, or null for an empty query. */
export function searchPattern(query: string): RegExp | null {
  return query === '' ? null : new RegExp(escapeRegExp(query), 'i');
}

export class LogBuffer {
  readonly capacity: number;
  /** Entries evicted (oldest first) because the buffer was full. */
  dropped = 0;
  /** Entries that reached the view while paused: what "resume" will show. */
  unseen = 0;
  following = true;

  #ring: (LogEntry | undefined)[];
  #head = 0;
  #size = 0;
  #pending: LogEntry[] = [];
  #seq = 0;
  #lastKey = new Map<string, number>();
  #filter: LogFilter = { stdout: true, stderr: true, hidden: [] };
  #pattern: RegExp | null = null;
  #view: LogEntry[] = [];
  #matches: LogEntry[] = [];
  #current: LogEntry | null = null;
  /** How the view changed since takeViewChange(), for a layout to redo only that part. */
  #change: RowChange = { removed: 0, from: 0 };
  /** Merged by #bound() since the last flush() call: the caller still has news to show. */
  #mergedEarly = false;

  constructor(capacity = DEFAULT_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be ≥ 1');
    this.capacity = capacity;
    this.#ring = new Array<LogEntry | undefined>(capacity);
  }

  /** Entries held, in order. */
  get size(): number {
    return this.#size;
  }

  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Entries the filter lets through, in order: what the viewer renders. */
  get view(): readonly LogEntry[] {
    return this.#view;
  }

  get matches(): readonly LogEntry[] {
    return this.#matches;
  }

  get filter(): LogFilter {
    return this.#filter;
  }

  get pattern(): RegExp | null {
    return this.#pattern;
  }

  /** Index of the selected match in `matches`, or -1. */
  get currentMatch(): number {
    const current = this.#current;
    if (!current) return -1;
    const i = lowerBound(this.#matches.length, (j) => this.#matches[j]!, current);
    return this.#matches[i] === current ? i : -1;
  }

  /** The selected match's index in `view`, or -1. */
  get currentViewIndex(): number {
    return this.#current ? this.indexOf(this.#current) : -1;
  }

  /** Where `entry` stands in the view, or -1 when it is filtered out or gone. */
  indexOf(entry: LogEntry): number {
    const i = lowerBound(this.#view.length, (j) => this.#view[j]!, entry);
    return this.#view[i] === entry ? i : -1;
  }

  /** Rows cut from the view's front and the first row that may differ since the last call. */
  takeViewChange(): RowChange {
    const change = this.#change;
    this.#change = { removed: 0, from: this.#view.length };
    return change;
  }

  /** The entry at position i (0 = oldest held). */
  at(i: number): LogEntry | undefined {
    return i < 0 || i >= this.#size ? undefined : this.#ring[(this.#head + i) % this.capacity];
  }

  push(source: string, lines: readonly IncomingLine[]): void {
    for (const { stream, ts, line } of lines) {
      const key = ts === undefined ? Date.now() : timestampKey(ts);
      this.#queue(source, 'line', stream, line, this.#keyFor(source, key));
    }
    this.#bound();
  }

  /** The channel dropped `missed` lines of this source (a slow browser): shown as a marker. */
  /** `missed: null`: lines are missing but how many is unknown (the server could not count them). */
  gap(source: string, missed: number | null): void {
    const text =
      missed === null
        ? 'some lines missed (how many is unknown)'
        : `${missed.toLocaleString('en')} ${missed === 1 ? 'line' : 'lines'} missed`;
    this.#queue(source, 'gap', null, text, this.#markerKey(source));
    this.#bound();
  }

  ended(source: string, reason: string): void {
    this.#queue(source, 'ended', null, `stream ended: ${reason}`, this.#markerKey(source));
    this.#bound();
  }

  /**
   * Merges queued entries into the buffer and the view. Returns false when nothing changed
   * since the last call. Late entries (another source's older lines) are merged into the tail, so the cost is the
   * tail from the earliest new entry, never the whole buffer unless the news is that old.
   */
  flush(): boolean {
    const mergedEarly = this.#mergedEarly;
    this.#mergedEarly = false;
    if (this.#pending.length === 0) return mergedEarly;
    const incoming = this.#pending.sort(compareEntries);
    this.#pending = [];
    const first = incoming[0]!;
    const at = (i: number) => this.at(i)!;
    const from = lowerBound(this.#size, at, first);
    const tail: LogEntry[] = [];
    for (let i = from; i < this.#size; i++) tail.push(at(i));
    this.#size = from;
    for (const entry of tail.length ? mergeSorted(tail, incoming) : incoming) this.#append(entry);

    // Evicted entries are the oldest: cut them from the view and matches, then rebuild both
    // from the earliest entry that changed.
    const oldest = this.at(0)!;
    const evicted = lowerBound(this.#view.length, (j) => this.#view[j]!, oldest);
    this.#view.splice(0, evicted);
    this.#matches.splice(
      0,
      lowerBound(this.#matches.length, (j) => this.#matches[j]!, oldest)
    );
    const changed = compareEntries(first, oldest) < 0 ? oldest : first;
    const before = this.#view.length;
    const cut = this.#rebuildFrom(changed);
    this.#change = {
      removed: this.#change.removed + evicted,
      from: Math.max(0, Math.min(this.#change.from - evicted, cut))
    };
    if (!this.following) this.unseen += Math.max(0, this.#view.length - before);
    return true;
  }

  setFilter(filter: Partial<LogFilter>): void {
    this.#filter = { ...this.#filter, ...filter };
    this.#view = [];
    this.#matches = [];
    this.#change = { removed: 0, from: 0 };
    const first = this.at(0);
    if (first) this.#rebuildFrom(first);
  }

  setQuery(query: string): void {
    this.#pattern = searchPattern(query);
    this.#current = null;
    const pattern = this.#pattern;
    this.#matches = pattern
      ? this.#view.filter((e) => e.kind === 'line' && pattern.test(e.plain))
      : [];
  }

  /**
   * Selects the next match and returns its view index (-1 when there is none). With no match
   * selected yet, the first one at or after `from` (a view index, e.g. the top visible row).
   */
  nextMatch(from = 0): number {
    return this.#step(1, from);
  }

  /** Selects the previous match; with none selected yet, the last one before `from`. */
  prevMatch(from = this.#view.length): number {
    return this.#step(-1, from);
  }

  pause(): void {
    if (!this.following) return;
    this.following = false;
    this.unseen = 0;
  }

  resume(): void {
    this.following = true;
    this.unseen = 0;
  }

  #step(direction: 1 | -1, from: number): number {
    const matches = this.#matches;
    if (matches.length === 0) return -1;
    let i = this.currentMatch;
    if (i === -1) {
      const anchor = this.#view[Math.min(Math.max(from, 0), this.#view.length - 1)];
      const start = anchor ? lowerBound(matches.length, (j) => matches[j]!, anchor) : 0;
      i = direction === 1 ? start : start - 1;
    } else {
      i += direction;
    }
    i = (i + matches.length) % matches.length;
    this.#current = matches[i]!;
    return this.indexOf(this.#current);
  }

  /** Re-derives the view and matches from `changed` on; returns the view index it cut at. */
  #rebuildFrom(changed: LogEntry): number {
    const view = this.#view;
    const cut = lowerBound(view.length, (j) => view[j]!, changed);
    view.length = cut;
    const matches = this.#matches;
    matches.length = lowerBound(matches.length, (j) => matches[j]!, changed);
    const at = (i: number) => this.at(i)!;
    const pattern = this.#pattern;
    for (let i = lowerBound(this.#size, at, changed); i < this.#size; i++) {
      const entry = at(i);
      if (!this.#visible(entry)) continue;
      view.push(entry);
      if (pattern && entry.kind === 'line' && pattern.test(entry.plain)) matches.push(entry);
    }
    return cut;
  }

  #visible(entry: LogEntry): boolean {
    if (this.#filter.hidden.includes(entry.source)) return false;
    return entry.stream === null || this.#filter[entry.stream];
  }

  #append(entry: LogEntry): void {
    if (this.#size === this.capacity) {
      this.#ring[this.#head] = entry;
      this.#head = (this.#head + 1) % this.capacity;
      this.dropped++;
    } else {
      this.#ring[(this.#head + this.#size) % this.capacity] = entry;
      this.#size++;
    }
  }

  #queue(
    source: string,
    kind: LogEntry['kind'],
    stream: StreamName | null,
    text: string,
    key: number
  ) {
    this.#pending.push({
      seq: this.#seq++,
      key,
      source,
      kind,
      stream,
      text,
      plain: stripAnsi(text)
    });
  }

  /** A source's lines keep their arrival order even if its clock steps back. */
  #keyFor(source: string, key: number): number {
    const last = this.#lastKey.get(source);
    const kept = last !== undefined && (key < last || Number.isNaN(key)) ? last : key;
    this.#lastKey.set(source, Number.isNaN(kept) ? 0 : kept);
    return Number.isNaN(kept) ? 0 : kept;
  }

  /** Markers stand right after the source's last line (now, if it has none yet). */
  #markerKey(source: string): number {
    return this.#lastKey.get(source) ?? Date.now();
  }

  /**
   * A hidden tab gets no animation frames: past a buffer's worth of queued entries, merge now,
   * so queued memory stays bounded too.
   */
  #bound(): void {
    if (this.#pending.length >= this.capacity) {
      this.flush();
      this.#mergedEarly = true;
    }
  }
}

function mergeSorted(a: readonly LogEntry[], b: readonly LogEntry[]): LogEntry[] {
  const out: LogEntry[] = new Array<LogEntry>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    out[k++] = compareEntries(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}
