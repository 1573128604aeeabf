import {
  DEFAULT_CAPACITY,
  LogBuffer,
  type IncomingLine,
  type LogEntry,
  type StreamName
} from '$lib/logs/log-buffer';

/** A container (or any stream) shown in the viewer, with the colour that marks its lines. */
export interface LogSource {
  id: string;
  label: string;
  colour: string;
}

/** What a mounted LogViewer exports: how a page feeds it from the realtime channel. */
export interface LogFeed {
  push(sourceId: string, lines: readonly IncomingLine[]): void;
  gap(sourceId: string, missed: number | null): void;
  ended(sourceId: string, reason: string): void;
}

/** Source colours that read on both themes, for pages that have no colours of their own. */
export const SOURCE_COLOURS = [
  'light-dark(#3451c7, #8ea2ff)',
  'light-dark(#c2410c, #fb923c)',
  'light-dark(#15803d, #4ade80)',
  'light-dark(#a21caf, #e879f9)',
  'light-dark(#0e7490, #22d3ee)',
  'light-dark(#a16207, #facc15)'
] as const;

export function sourceColour(index: number): string {
  return SOURCE_COLOURS[index % SOURCE_COLOURS.length]!;
}

export type RequestFrame = (callback: () => void) => () => void;
/** Runs `callback` after `ms` (a timer in the browser); returns a cancel. */
export type Delay = (callback: () => void, ms: number) => () => void;

/**
 * While a burst lasts (the last frame merged BURST_LINES or more), frames are at least
 * BURST_FRAME_MS apart: nobody reads 40,000 lines a second, and every frame costs the browser a
 * layout of the rows, which at 60 frames a second took more of the page's time than the lines.
 * A quiet stream's line still shows at the next frame.
 */
const BURST_LINES = 200;
const BURST_FRAME_MS = 100;

const timer: Delay = (callback, ms) => {
  const id = setTimeout(callback, ms);
  return () => clearTimeout(id);
};

const animationFrame: RequestFrame = (callback) => {
  const id = requestAnimationFrame(callback);
  return () => cancelAnimationFrame(id);
};

/**
 * The log viewer's reactive face over LogBuffer. Entries stay in the plain buffer (200,000
 * proxied objects would cost more than the rendering); `revision` changes once per merged
 * frame and the rest mirrors what the toolbar and status line show.
 */
export class LogViewerState {
  readonly buffer: LogBuffer;
  sources = $state.raw<LogSource[]>([]);
  revision = $state(0);
  following = $state(true);
  unseen = $state(0);
  size = $state(0);
  dropped = $state(0);
  query = $state('');
  pattern = $state.raw<RegExp | null>(null);
  matchCount = $state(0);
  currentMatch = $state(-1);
  streams = $state<Record<StreamName, boolean>>({ stdout: true, stderr: true });
  hidden = $state.raw<readonly string[]>([]);
  timestamps = $state(true);
  wrap = $state(false);

  readonly #requestFrame: RequestFrame;
  readonly #delay: Delay;
  readonly #now: () => number;
  #cancelFrame: (() => void) | null = null;
  /** When the last frame merged, and how many entries it merged. */
  #lastFrame = { at: -Infinity, merged: 0 };

  constructor(
    sources: LogSource[],
    {
      capacity = DEFAULT_CAPACITY,
      requestFrame = animationFrame,
      delay = timer,
      now = () => performance.now()
    } = {}
  ) {
    this.sources = sources;
    this.buffer = new LogBuffer(capacity);
    this.#requestFrame = requestFrame;
    this.#delay = delay;
    this.#now = now;
  }

  source(id: string): LogSource | undefined {
    return this.sources.find((s) => s.id === id);
  }

  push(sourceId: string, lines: readonly IncomingLine[]): void {
    this.buffer.push(sourceId, lines);
    this.#schedule();
  }

  gap(sourceId: string, missed: number | null): void {
    this.buffer.gap(sourceId, missed);
    this.#schedule();
  }

  ended(sourceId: string, reason: string): void {
    this.buffer.ended(sourceId, reason);
    this.#schedule();
  }

  /** Merges what is queued now instead of at the next frame. */
  flush(): void {
    this.#cancelFrame?.();
    this.#cancelFrame = null;
    if (this.buffer.flush()) this.#sync();
  }

  setQuery(query: string): void {
    this.query = query;
    this.buffer.setQuery(query);
    this.#sync();
  }

  setStream(stream: StreamName, shown: boolean): void {
    this.streams = { ...this.streams, [stream]: shown };
    this.buffer.setFilter({ [stream]: shown });
    this.#sync();
  }

  toggleSource(id: string): void {
    const hidden = this.hidden.includes(id)
      ? this.hidden.filter((h) => h !== id)
      : [...this.hidden, id];
    this.hidden = hidden;
    this.buffer.setFilter({ hidden });
    this.#sync();
  }

  /** Selects the next match (from view row `from` when none is selected); returns its row. */
  nextMatch(from?: number): number {
    const row = this.buffer.nextMatch(from);
    this.#sync();
    return row;
  }

  prevMatch(from?: number): number {
    const row = this.buffer.prevMatch(from);
    this.#sync();
    return row;
  }

  isCurrentMatch(entry: LogEntry): boolean {
    return this.currentMatch !== -1 && this.buffer.matches[this.currentMatch] === entry;
  }

  pause(): void {
    this.buffer.pause();
    this.#sync();
  }

  resume(): void {
    this.buffer.resume();
    this.#sync();
  }

  dispose(): void {
    this.#cancelFrame?.();
    this.#cancelFrame = null;
  }

  #schedule(): void {
    if (this.#cancelFrame) return;
    const frame = () => {
      this.#cancelFrame = null;
      const merged = this.buffer.pendingCount;
      if (!this.buffer.flush()) return;
      this.#lastFrame = { at: this.#now(), merged };
      this.#sync();
    };
    const wait =
      this.#lastFrame.merged >= BURST_LINES ? this.#lastFrame.at + BURST_FRAME_MS - this.#now() : 0;
    if (wait <= 0) {
      this.#cancelFrame = this.#requestFrame(frame);
      return;
    }
    let cancelFrame = () => {};
    const cancelDelay = this.#delay(() => (cancelFrame = this.#requestFrame(frame)), wait);
    this.#cancelFrame = () => {
      cancelDelay();
      cancelFrame();
    };
  }

  #sync(): void {
    const b = this.buffer;
    this.revision++;
    this.following = b.following;
    this.unseen = b.unseen;
    this.size = b.size;
    this.dropped = b.dropped;
    this.pattern = b.pattern;
    this.matchCount = b.matches.length;
    this.currentMatch = b.currentMatch;
  }
}
