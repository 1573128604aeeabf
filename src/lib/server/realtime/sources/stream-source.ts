import type { Readable } from 'node:stream';
import { isDomainError } from '../../errors';
import type { Publish, Stop } from '../channel-hub';

export interface StreamSourceSpec<T> {
  channel: string;
  open(): Promise<Readable>;
  read(stream: Readable): AsyncIterable<T>;
  onItem(item: T): void;
  /** Said to the members when the engine ends the stream by itself. */
  endedReason: string;
}

/**
 * Runs one engine stream for a channel until its stop. The engine ending the stream, dropping it,
 * or refusing to open it becomes `stream.ended {reason}` for the members; a stop destroys the
 * stream (closing the engine request, so no listener outlives it) and says nothing.
 */
export function runStreamSource<T>(spec: StreamSourceSpec<T>, publish: Publish): Stop {
  let stopped = false;
  let stream: Readable | null = null;
  const run = async () => {
    try {
      stream = await spec.open();
      if (stopped) return;
      for await (const item of spec.read(stream)) {
        if (stopped) return;
        spec.onItem(item);
      }
      if (!stopped) publish('stream.ended', { channel: spec.channel, reason: spec.endedReason });
    } catch (err) {
      if (!stopped) publish('stream.ended', { channel: spec.channel, reason: describe(err) });
    } finally {
      stream?.destroy();
    }
  };
  void run();
  return () => {
    stopped = true;
    stream?.destroy();
  };
}

function describe(err: unknown): string {
  if (isDomainError(err)) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNREFUSED')
    return 'the engine dropped the stream';
  return `the stream failed: ${err instanceof Error ? err.message : String(err)}`;
}
