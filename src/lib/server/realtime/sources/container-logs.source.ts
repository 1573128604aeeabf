import type { JoinOptions, LogLine } from '$lib/contracts/realtime';
import type { EngineStreamsLookup } from '../../engine/engine-streams';
import { StreamDemuxer, type LogRecord } from '../../engine/stream-demux';
import type { EngineStreams } from '../../engine/engine-streams';
import type { Backfill, Publish, SourceHandle } from '../channel-hub';
import { runStreamSource } from './stream-source';

export interface LogSourceLimits {
  /** Lines kept for members who join later or resume: count and bytes. */
  ringLines: number;
  ringBytes: number;
  /** Lines a join without `since` starts with. */
  defaultTail: number;
  /** Lines read back for a resume that reaches past the ring; the rest are counted as missed. */
  backfillLines: number;
}

export const LOG_SOURCE_LIMITS: LogSourceLimits = {
  ringLines: 10_000,
  ringBytes: 8 * 1024 * 1024,
  defaultTail: 200,
  backfillLines: 5_000
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
        endedReason: 'the log stream ended: the container stopped, or the engine closed it',
        coalesceMs: 15
      },
      publish
    );
    return {
      stop: source.stop,
      welcome(options, send, backfill) {
        const { lines, complete } = ring.from(options.since, options.tail ?? limits.defaultTail);
        // The ring no longer reaches back to `since`: the lines before it are read back from the
        // engine, and reach the member ahead of the ring's and the live ones.
        if (!complete && options.since && lines[0]?.ts)
          backfill(readBack(streams, id, options.since, lines[0].ts, limits.backfillLines));
        else if (!complete) send('container.log.gap', { channel, missed: null });
        if (lines.length) send('container.log', { channel, lines });
        source.welcome?.(options, send, backfill);
      }
    };
  };
}

/**
 * The lines from `since` up to (not including) `before`, read once from the engine: at most `cap`
 * of them, the rest counted as missed.
 */
async function readBack(
  streams: EngineStreams,
  id: string,
  since: string,
  before: string,
  cap: number
): Promise<Backfill> {
  const lines: LogLine[] = [];
  let missed = 0;
  const stream = await streams.openLogs(id, { follow: false, timestamps: true, since });
  const demux = new StreamDemuxer({ timestamps: true });
  const take = (records: LogRecord[]): boolean => {
    for (const record of records) {
      if (record.ts !== undefined && record.ts >= before) return false;
      if (lines.length < cap) lines.push(record);
      else missed += 1;
    }
    return true;
  };
  try {
    for await (const chunk of stream)
      if (!take(demux.push(chunk as Buffer))) return { lines, missed };
    take(demux.end());
    return { lines, missed };
  } finally {
    stream.destroy();
  }
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
