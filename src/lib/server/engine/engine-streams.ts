import type { Readable } from 'node:stream';

export interface LogStreamOptions {
  /** RFC3339Nano or Unix seconds: lines at or after this instant. */
  since?: string;
  /** Lines from the end to start with; none: all the engine holds. */
  tail?: number;
  follow: boolean;
  timestamps: boolean;
}

export interface EventStreamOptions {
  /** Unix seconds. */
  since?: number;
  filters?: { type?: string[]; event?: string[] };
}

/**
 * What the realtime channels need from an engine: the raw bytes of its streams. Opening fails
 * with a DomainError (NOT_FOUND for a container the engine does not know, ENGINE_UNAVAILABLE when
 * nothing answers); the stream ends or errors when the engine drops it. Destroying the stream
 * closes the request.
 */
export interface EngineStreams {
  /** Multiplexed (or raw for a TTY) log stream: feed it to stream-demux.ts. */
  openLogs(id: string, options: LogStreamOptions): Promise<Readable>;
  /** One JSON stats sample per line, about one a second. */
  openStats(id: string): Promise<Readable>;
  /** One JSON event per line. */
  openEvents(options?: EventStreamOptions): Promise<Readable>;
}

/** The streams of an engine by its name; null for a name no engine has. */
export type EngineStreamsLookup = (engine: string) => EngineStreams | null;

/** The engine's `since`: Unix seconds with up to nine decimals, exact (no float rounding). */
export function unixSince(since: string): string {
  if (/^\d+(\.\d{1,9})?$/.test(since)) return since;
  const match = /^(.+?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(since);
  const seconds = match ? Date.parse(`${match[1]}${match[3]}`) : NaN;
  if (!match || Number.isNaN(seconds)) throw new Error(`not a timestamp: ${since}`);
  return `${Math.floor(seconds / 1000)}.${(match[2] ?? '').padEnd(9, '0')}`;
}
