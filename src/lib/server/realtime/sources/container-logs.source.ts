import type { JoinOptions, LogLine } from '$lib/contracts/realtime';
import type { EngineStreamsLookup } from '../../engine/engine-streams';
import { StreamDemuxer, type LogRecord } from '../../engine/stream-demux';
import type { Publish, SourceHandle } from '../channel-hub';
import { runStreamSource } from './stream-source';

export interface LogSourceLimits {
  /** Lines kept for members who join later or resume: count and bytes. */
  ringLines: number;
  ringBytes: number;
  /** Lines a join without `since` starts with. */
  defaultTail: number;
}

export const LOG_SOURCE_LIMITS: LogSourceLimits = {
  ringLines: 10_000,
  ringBytes: 8 * 1024 * 1024,
  defaultTail: 200
};

/**
 * One followed log stream per `container.logs:<engine>:<id>` channel, opened with the first
 * member's `since` (or its `tail`), always with timestamps so that viewers can resume. The
 * latest lines are kept in a bounded ring for members who join while it runs.
 */
export function containerLogsSource(engines: EngineStreamsLookup, limits = LOG_SOURCE_LIMITS) {
  return (
    { engine, id }: { engine: string; id: string },
    publish: Publish,
    first: JoinOptions
  ): SourceHandle => {
    const streams = engines(engine);
    if (!streams) throw new Error(`no engine is named ${engine}`);
    const channel = `container.logs:${engine}:${id}`;
    const ring = new LineRing(limits.ringLines, limits.ringBytes, first.since);
    const source = runStreamSource(
      {
        channel,
        open: () =>
          streams.openLogs(id, {
            follow: true,
            timestamps: true,
            ...(first.since ? { since: first.since } : { tail: first.tail ?? limits.defaultTail })
          }),
        parser: () => new StreamDemuxer({ timestamps: true }),
        onItems: (lines: LogRecord[]) => {
          ring.push(lines);
          publish('container.log', { channel, lines });
        },
        endedReason: 'the log stream ended: the container stopped, or the engine closed it'
      },
      publish
    );
    return {
      stop: source.stop,
      welcome(options, send) {
        const { lines, complete } = ring.from(options.since, options.tail ?? limits.defaultTail);
        // The ring no longer reaches back to `since`: say so rather than pretend.
        if (!complete) send('container.log.gap', { channel, missed: null });
        if (lines.length) send('container.log', { channel, lines });
        source.welcome?.(options, send);
      }
    };
  };
}

/** The latest lines, bounded by count and bytes. */
class LineRing {
  #lines: LogLine[] = [];
  #start = 0;
  #bytes = 0;
  /** Whether lines have been dropped from the front. */
  #trimmed = false;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
    /** The stream was opened from this instant, so it holds every line after it. */
    private readonly startedSince: string | undefined
  ) {}

  push(lines: LogLine[]): void {
    for (const line of lines) {
      this.#lines.push(line);
      this.#bytes += line.line.length;
    }
    while (
      this.#lines.length - this.#start > this.maxLines ||
      (this.#bytes > this.maxBytes && this.#lines.length - this.#start > 1)
    ) {
      this.#bytes -= this.#lines[this.#start]!.line.length;
      this.#start += 1;
      this.#trimmed = true;
    }
    if (this.#start > this.maxLines) {
      this.#lines = this.#lines.slice(this.#start);
      this.#start = 0;
    }
  }

  /**
   * Lines at or after `since` (the member's outbox skips the ones it has seen), and whether that
   * is all of them; without `since`, the last `tail`.
   */
  from(since: string | undefined, tail: number): { lines: LogLine[]; complete: boolean } {
    const kept = this.#lines.slice(this.#start);
    if (since === undefined) return { lines: tail > 0 ? kept.slice(-tail) : [], complete: true };
    const at = kept.findIndex((l) => l.ts !== undefined && l.ts >= since);
    const lines = at < 0 ? [] : kept.slice(at);
    const oldest = kept[0]?.ts;
    const fromStart =
      !this.#trimmed && this.startedSince !== undefined && this.startedSince <= since;
    return { lines, complete: fromStart || (oldest !== undefined && oldest <= since) };
  }
}
