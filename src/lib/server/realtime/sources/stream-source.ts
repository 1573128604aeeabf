import type { Readable } from 'node:stream';
import { isDomainError } from '../../errors';
import type { Publish, SourceHandle } from '../channel-hub';

/** A push parser: chunks in, items out (a batch of lines, a stats sample, an event). */
export interface ChunkParser<T> {
  push(chunk: Buffer): T[];
  end(): T[];
}

export interface StreamSourceSpec<T> {
  channel: string;
  open(): Promise<Readable>;
  parser(): ChunkParser<T>;
  onItems(items: T[]): void;
  /** Said to the members when the engine ends the stream by itself. */
  endedReason: string;
  /**
   * Items parsed close together go out together, at most one batch per this many ms: the
   * engine sends each log line as its own chunk, and a message per line cost more (encoding,
   * socket writes, the browser's parsing) than the lines. The first item after a quiet spell
   * goes out at once (after the current I/O).
   */
  coalesceMs?: number;
}

const EVENTS = ['data', 'end', 'error', 'close'] as const;

/**
 * Runs one engine stream for a channel until its stop. The engine ending the stream, dropping it,
 * or refusing to open it becomes `stream.ended {reason}` for the members (and for members who
 * join later); a stop destroys the
 * stream (closing the engine request) and says nothing. Every listener put on the stream is taken
 * off again either way, so nothing outlives the channel.
 */
export function runStreamSource<T>(spec: StreamSourceSpec<T>, publish: Publish): SourceHandle {
  let finished = false;
  let endedWith: string | null = null;
  let stream: Readable | null = null;
  const parser = spec.parser();
  let pending: T[] = [];
  let cancelFlush: (() => void) | null = null;
  let lastFlush = -Infinity;

  const flush = () => {
    cancelFlush?.();
    cancelFlush = null;
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    lastFlush = performance.now();
    spec.onItems(items);
  };
  const queue = (items: T[]) => {
    for (const item of items) pending.push(item);
    if (cancelFlush || pending.length === 0) return;
    const wait = lastFlush + (spec.coalesceMs ?? 0) - performance.now();
    if (wait > 0) {
      const timer = setTimeout(flush, wait);
      cancelFlush = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(flush);
      cancelFlush = () => clearImmediate(immediate);
    }
  };

  const finish = (reason: string | null) => {
    if (finished) return;
    // What was read goes out before the end is said; a stop (nobody listens) drops it.
    if (reason !== null) flush();
    cancelFlush?.();
    cancelFlush = null;
    pending = [];
    finished = true;
    if (stream) {
      for (const event of EVENTS) stream.off(event, handlers[event]);
      // A destroyed stream emits nothing more; the request behind it keeps its error listener.
      stream.destroy();
    }
    if (reason === null) return;
    endedWith = reason;
    publish('stream.ended', { channel: spec.channel, reason });
  };
  const handlers = {
    data: (chunk: Buffer) => {
      try {
        queue(parser.push(chunk));
      } catch (err) {
        finish(describe(err));
      }
    },
    end: () => {
      try {
        queue(parser.end());
        finish(spec.endedReason);
      } catch (err) {
        finish(describe(err));
      }
    },
    error: (err: Error) => finish(describe(err)),
    // Closed without end or error: the connection went away under the response.
    close: () => finish('the engine dropped the stream')
  };

  spec.open().then(
    (opened) => {
      stream = opened;
      if (finished) return void opened.destroy();
      for (const event of EVENTS) opened.on(event, handlers[event] as (arg: unknown) => void);
    },
    (err: unknown) => finish(describe(err))
  );
  return {
    stop: () => finish(null),
    // A member joining after the stream ended is told so too, not left waiting.
    welcome: (_options, send) => {
      if (endedWith !== null) send('stream.ended', { channel: spec.channel, reason: endedWith });
    }
  };
}

function describe(err: unknown): string {
  if (isDomainError(err)) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNREFUSED')
    return 'the engine dropped the stream';
  return `the stream failed: ${err instanceof Error ? err.message : String(err)}`;
}
