import pino, { type Logger } from 'pino';

/**
 * Lines are handed to the writer in strings of at least this many characters (SonicBoom's own
 * largest write; each hand-over is a write on the thread pool, about 20 µs of this thread)...
 */
const BATCH_CHARS = 16_384;
/** ...or after this long, whichever comes first. */
const BATCH_MS = 200;

/**
 * JSON logs on stdout; secrets never reach them (headers and cookies are redacted). Lines are
 * written in batches of 16 KiB or every 200 ms, whichever comes first: the access log writes
 * one line per gateway request, and a write per line cost about a quarter of a small RPC call's
 * throughput. Berth's shutdown (SIGTERM, SIGINT) waits until they are all written, in order
 * (`logger.flush`); any other exit (a crash) writes what waits at once, but a batch still on
 * the thread pool then may land after it. Up to 200 ms of lines are lost if the process is
 * killed outright (SIGKILL, out of memory).
 */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  // Before the writer's own exit hook, which flushes what it holds: ours hands it ours first.
  const batch = new LineBatch();
  process.once('exit', () => batch.flushSync());
  const destination = pino.destination({
    dest: 1,
    sync: false,
    // A stalled stdout drops lines past 16 MiB instead of growing the heap without bound.
    maxLength: 16 * 1024 * 1024
  });
  batch.sink = destination;
  return pino(
    {
      level,
      base: { app: 'berth' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-gateway-token"]',
          '*.password',
          '*.token'
        ],
        censor: '[redacted]'
      }
    },
    batch
  );
}

/**
 * SonicBoom sets `destroyed` once ended, and `_writing` while a write is on the thread pool (it
 * emits `drain` when that and all it queued behind it are written); its types leave both out.
 * The logger's test checks the order this gives.
 */
type Sink = ReturnType<typeof pino.destination> & { destroyed?: boolean; _writing?: boolean };

/**
 * Gathers lines into one string per batch for pino's writer (SonicBoom), which writes it
 * asynchronously. SonicBoom batches too, but measures the UTF-8 length of its whole pending
 * chunk on every line it appends, which cost about 2 µs a line of the access log at 4 KiB.
 */
class LineBatch {
  sink: Sink | null = null;
  #lines: string[] = [];
  #chars = 0;
  #timer: NodeJS.Timeout | null = null;

  write(line: string): boolean {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= BATCH_CHARS) this.drain();
    else this.#timer ??= setTimeout(() => this.drain(), BATCH_MS).unref();
    return true;
  }

  /** Hands what waits to the writer. */
  drain(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    // Past the writer's end (its own exit hook ran first) there is nowhere to write.
    if (!this.#lines.length || !this.sink || this.sink.destroyed) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.sink.write(text);
  }

  /**
   * pino's `logger.flush(cb)`: hands over what waits, and calls back once the writer has
   * written everything (SonicBoom's own flush calls back at once when it does not batch).
   */
  flush(cb?: (err?: Error) => void): void {
    this.drain();
    const sink = this.sink;
    if (sink && !sink.destroyed && sink._writing) sink.once('drain', () => cb?.());
    else cb?.();
  }

  flushSync(): void {
    this.drain();
    if (this.sink && !this.sink.destroyed) this.sink.flushSync();
  }
}

export type { Logger };
