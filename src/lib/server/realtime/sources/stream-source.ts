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

  const finish = (reason: string | null) => {
    if (finished) return;
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
        const items = parser.push(chunk);
        if (items.length) spec.onItems(items);
      } catch (err) {
        finish(describe(err));
      }
    },
    end: () => {
      try {
        const items = parser.end();
        if (items.length) spec.onItems(items);
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
